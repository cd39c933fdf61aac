"""Hand histories in and out of the engine: PHH (:mod:`.phh`, with its fast
TOML reader :mod:`.fasttoml`) and PokerStars-style text (:mod:`.pokerstars`)."""
