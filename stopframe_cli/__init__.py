"""The `stopframe` command line (spec §6): every subcommand in one place, above the pipeline.

main.py parses and turns errors into one sentence and an exit status; game.py (validate, replay,
import), observe.py, audit.py (audit, --batch), align.py and correct.py each register their commands.
"""
