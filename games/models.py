# Deals and submitted games are added by the game-service issue; the rules live in games/engine.
