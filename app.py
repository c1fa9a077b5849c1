"""Stopframe's judge workspace (Streamlit). Placeholder until the app issue lands."""

import streamlit as st

st.set_page_config(page_title="Stopframe", layout="wide")
st.title("Stopframe")
st.write("Video review for sport Mafia. The judge's workspace is being built; the sample game lives in `sample_videos/`.")
