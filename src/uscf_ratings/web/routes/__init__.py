"""The app's routes: the estimator's pages, the office's pages, and the JSON API."""
