"""What is printed, with no drawing library: the words catalogue, counter faces, pre-rolled
rows, the aid's text, print items and their diff, change marks."""
