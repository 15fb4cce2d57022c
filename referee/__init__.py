"""headjudge's referee: replays `referee-log/1` game logs and judges every record."""
