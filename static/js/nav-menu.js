// The phone's header menu (templates/base.html) closes as a menu does: on a
// tap anywhere outside it, and on Escape, which hands the focus back to it.
const menu = document.querySelector(".nav-menu");

if (menu) {
  document.addEventListener("click", (event) => {
    if (menu.open && !menu.contains(event.target)) menu.open = false;
  });
  document.addEventListener("keydown", (event) => {
    if (event.key !== "Escape" || !menu.open) return;
    menu.open = false;
    menu.querySelector("summary").focus();
  });
}
