"""A standing adversary: a mutation fuzzer over every reader and door (issue 37).

Seeds (`seeds`) are mutated (`mutate`) and each input goes through its doors (`doors`),
which check the invariants: no foreign exception, the memory ceiling, the database
unchanged after a refusal, stored = rated. `engine` runs the loop; `corpus` keeps what it
finds; `python -m tests.fuzz` runs it at any budget (docs/fuzzing.md).
"""
