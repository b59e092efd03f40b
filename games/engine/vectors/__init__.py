"""The vector files shared with the browser engine, and the script that writes them (build.py)."""
