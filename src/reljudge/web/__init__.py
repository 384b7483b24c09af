"""The small JSON routes served beside the Streamlit pages."""
