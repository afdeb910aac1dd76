"""The JSON Schema of the hand format, shipped for editors (yaml-language-server)."""

from pathlib import Path

SCHEMA_PATH = Path(__file__).with_name("hand.schema.json")
