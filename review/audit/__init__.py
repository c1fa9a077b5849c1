"""The audit: the hands and the night fields read against the game's rules, the findings and the report,
their calibrated confidence, the tally and the audio clock fit. Imports only review.game below it."""
