"""What the lab measures and trains on: the shared data's loaders (``datasets``), the generators of
synthetic records and edits (``synth``, ``records``) and the hand-written dev sets."""
