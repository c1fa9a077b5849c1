"""The pipeline above review and vision: protocol → windows → observe → audit → nights → report.

One wiring used by the command line (stopframe_cli), the app and the batch runner alike; review never
looks at a video and vision never judges, so only this layer knows both. It is the app's and the command
line's one door (the `one-door` import contract): `observer` (observe a video or a game's vote windows),
`audit` (audit a game from its files or from observations already read), `align` (vote times from the judge's
voice), `draft` (a partial protocol's votes from the video).
"""
