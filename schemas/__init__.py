"""The wire contract: msgspec Structs for log headers, records, verdicts and exports.

Nothing here holds logic. `referee schema` writes JSON Schema files generated
from these Structs to `schemas/json/`.
"""
