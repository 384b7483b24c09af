"""Reference page for bench_judging.py: the smallest Streamlit round trip.

One st.button; each click reruns the script on the server and the counter text
changes. Whatever the judging widget's acknowledgment costs, this is the floor of
a Streamlit server round trip on the same machine.
"""

import streamlit as st

st.session_state.setdefault("clicks", 0)
if st.button("누르기 / click", key="ref_button"):
    st.session_state.clicks += 1
# A fixed id lets the benchmark's MutationObserver find the text without scanning.
st.markdown(f'<span id="ref-count">count {st.session_state.clicks}</span>', unsafe_allow_html=True)
