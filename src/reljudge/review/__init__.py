"""Answer review: reviewing each system's generated answer sentence by sentence against the
paragraphs it cites, and the measures of reviewed answers."""
