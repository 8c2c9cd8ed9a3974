import os
import sys

# Tests import the package from python/ (PYTHONPATH=python also works).
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
