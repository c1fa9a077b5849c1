"""The game: the protocol and its importers, the rule profiles, and the engine that replays a game under them
(votes, eliminations, the result, the vote windows on the protocol's clock). Imports nothing else of review."""
