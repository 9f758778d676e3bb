"""conftest.py: pytest finds lcptest.py beside it (tests/python/; lcptest.py says what meson
test sets in the environment)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
