"""Stopframe's judge workspace from a checkout: `streamlit run app.py` opens the bundled sample game.
The installed package runs the same through `stopframe app` (stopframe_app/entry/app.py)."""

from stopframe_app.main import main

main()
