"""The pipeline above review and vision: protocol → windows → observe → audit → nights → report.

One wiring used by the command line (stopframe_cli), the app and the batch runner alike; review never
looks at a video and vision never judges, so only this layer knows both.
"""
