"""The estimator: one player's games against opponents of given ratings, rated by the
engine (estimate.py), read from the fields a person fills in (form.py) and told in the
terminal (text.py). The web app's estimator page and ``uscf estimate`` both use it."""
