"""The Streamlit script of the judge's workspace as it ships in the package: `stopframe app` runs it.

It sits in a folder of its own because Streamlit puts the script's folder first on sys.path: from here that
adds no module names (stopframe_app's own `game`, `state` or `main` would otherwise be importable bare).
"""

from stopframe_app.main import main

main()
