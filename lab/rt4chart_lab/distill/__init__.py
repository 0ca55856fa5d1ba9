"""Teaching the encoder what the embedded LLM reads: the reader's labels (``reader_labels``)."""
