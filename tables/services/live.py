"""The live hands this process moved last: a move's state from memory, not decoded anew.

A move locks its table, then reads its hand (``tables.services.common._lock_hand``).
Where this process made the hand's last change, it still holds the
:class:`HandState` that change left, and the row under the lock names the
version it was left at: the move is checked and applied against that state,
and the row's ``state`` column is neither read nor decoded. Any other
writer (another Daphne process, the Celery worker's timeouts) moves the
version on, so a copy left behind is never used again: the move reads the
row's state instead, as every move did before. (A database put back to an
earlier moment under running processes would undo that promise for the
hands it rewinds: restart the Daphnes with it.)

A copy leaves the cache when a move takes it, and the state the move leaves
goes back only once its transaction has committed: a move that fails or
rolls back leaves nothing behind, and what is kept is always what
PostgreSQL holds. A process that dies takes its copies with it; whoever
moves next reads the hand from PostgreSQL. The hand's row is written only
if its version is still the one the move read
(``tables.services.hands._hand_store``).
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from django.db import transaction

from tables.rules import HandState


class LiveHands:
    """Hand id -> (version, deck commitment, the state at that version), the
    newest ``KEEP`` hands. The commitment tells one hand from another that
    took its id (a database emptied or restored under a running process)."""

    KEEP = 1024  # hands (tables) per process, about 16 KB each

    def __init__(self) -> None:
        self._hands: OrderedDict[int, tuple[int, str, HandState]] = OrderedDict()
        self._lock = threading.Lock()

    def holds(self, hand_id: int, version: int | None = None) -> bool:
        """Whether a state of the hand is kept: at ``version``, or at any."""
        kept = self._hands.get(hand_id)
        return kept is not None and version in (None, kept[0])

    def take(self, hand_id: int, version: int, commitment: str) -> HandState | None:
        """The kept state if it is the hand's at ``version``; it is no longer kept either way."""
        with self._lock:
            kept = self._hands.pop(hand_id, None)
        if kept is None or kept[:2] != (version, commitment):
            return None
        return kept[2]

    def keep_on_commit(self, hand_id: int, version: int, commitment: str, state: HandState) -> None:
        """Keep ``state`` as the hand at ``version`` once the current transaction commits.

        The caller hands the state over: nothing else may change it from now on.
        """
        transaction.on_commit(lambda: self._keep(hand_id, (version, commitment, state)))

    def forget(self, hand_id: int) -> None:
        with self._lock:
            self._hands.pop(hand_id, None)

    def _keep(self, hand_id: int, kept: tuple[int, str, HandState]) -> None:
        with self._lock:
            self._hands[hand_id] = kept
            self._hands.move_to_end(hand_id)
            while len(self._hands) > self.KEEP:
                self._hands.popitem(last=False)


LIVE_HANDS = LiveHands()
