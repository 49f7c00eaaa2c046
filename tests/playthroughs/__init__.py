"""Golden playthroughs: one seeded game per conformance config, written out as a transcript for review."""
