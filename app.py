"""Stopframe's judge workspace: `streamlit run app.py` opens the bundled sample game."""

from stopframe_app.main import main

main()
