"""Agreement coefficients between annotators (Cohen's and Fleiss' kappa, Krippendorff's
alpha, percent agreement) over plain tables: no database."""
