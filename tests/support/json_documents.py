"""JSON documents drawn by Hypothesis, for the codec and JSON field tests."""

from __future__ import annotations

from hypothesis import strategies as st

leaves = (
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.text()
    | st.floats(allow_nan=False)
)


documents = st.recursive(
    leaves,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4)
    ),
    max_leaves=20,
)
