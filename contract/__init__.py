"""The bottom layer: what crosses between vision and review (observation types, pose names), the errors
the command line turns into exit statuses, and the reader of the project's versioned JSON documents.

It imports nothing of the project's own; review, vision, the pipeline and the app all import it.
"""
