// The hand page's deck check: recomputes SHA-256 of "<salt>:<deck>" from the
// text shown on the page (sha256.js, loaded beside it when they are shown).
import { byId, el } from "../shared/dom.js";

export function checkDeck() {
  const button = byId("deck-check-button");
  if (!button) return;
  button.addEventListener("click", () => {
    const out = byId("deck-check-result");
    const text = byId("deck-salt").textContent.trim() + ":" + byId("deck-cards").textContent.trim();
    const hash = window.cardroomSha256(text);
    const matches = hash === byId("deck-commitment").textContent.trim();
    out.textContent = "";
    out.className = "deck-result " + (matches ? "deck-match" : "deck-mismatch");
    out.appendChild(el("strong", "", matches ? "It matches." : "It does not match!"));
    out.appendChild(el("span", "", " SHA-256 of the salt and deck above: "));
    out.appendChild(el("code", "hash", hash));
    out.appendChild(
      el(
        "span",
        "",
        matches
          ? ". The deck was fixed before the first card was dealt."
          : ". This deck is not the one committed to when the hand began.",
      ),
    );
  });
}
