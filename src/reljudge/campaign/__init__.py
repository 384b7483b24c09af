"""Campaign work over the storage layer: setting up and importing, pooling, judging and its
events, judging plans, assignment, adjudication, progress, evaluation, exports, the bundle and
accounts."""
