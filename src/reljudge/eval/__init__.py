"""The metric engine: the measure registry, the ranking rule, trec_eval-semantics metrics,
bounds over unjudged paragraphs and the TREC reader. It imports nothing above it: no storage,
no campaign work, no reporting."""
