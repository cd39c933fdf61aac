"""A player's past hands: the My hands list, one hand's page and replayer, and the
PHH and PokerStars-style exports. What a viewer may see of a hand is decided in
:mod:`tables.selectors.history`."""
