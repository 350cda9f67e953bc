# krunch: `make run` runs every bundled spec; `make test` passes the tests.
CARGO ?= cargo
SPECS := $(wildcard experiments/*.toml)
# Where the tests that skip (no seed texts, no Chromium) record themselves;
# `make test` lists them at the end.
SKIP_LOG ?= target/krunch-skipped.txt

.PHONY: run test bench bench-peers bench-numpy lint fmt clean

# Release build, then every spec in experiments/ into reports/.
run:
	$(CARGO) build --release --locked
	./target/release/krunch run $(SPECS)

# Statistical tests run many trials: always in the optimised profile.
test:
	@if [ -z "$$KRUNCH_SEEDS" ] && [ ! -d ../shared/seeds ]; then \
	  echo "note: no ../shared/seeds beside this clone: the tests that check encoded tables"; \
	  echo "      against the rule texts skip (set KRUNCH_SEEDS=/path/to/seeds to run them)"; fi
	$(CARGO) build --release --locked
	@rm -f "$(SKIP_LOG)"
	@KRUNCH_SKIP_LOG="$(abspath $(SKIP_LOG))" $(CARGO) test --release --locked; \
	  status=$$?; \
	  whole=$$(grep -v ' (in part): ' "$(SKIP_LOG)" 2>/dev/null | sort -u); \
	  part=$$(grep ' (in part): ' "$(SKIP_LOG)" 2>/dev/null | sort -u); \
	  echo; \
	  if [ -n "$$whole" ]; then \
	    echo "SKIPPED: $$(echo "$$whole" | sed 's/: .*//' | sort -u | wc -l | tr -d ' ') tests skipped (each passed as \"ok\" above without checking):"; \
	    echo "$$whole" | sed 's/^/  /'; \
	  else echo "skipped: none"; fi; \
	  if [ -n "$$part" ]; then \
	    echo "SKIPPED IN PART: $$(echo "$$part" | wc -l | tr -d ' ') cases (their test passed on its other checks):"; \
	    echo "$$part" | sed 's/^/  /'; fi; \
	  exit $$status

# Criterion benchmarks plus the 1e9-trial peak-memory run (see docs/BENCHMARKS.md).
bench:
	$(CARGO) bench --locked
	$(CARGO) build --release --locked
	benches/peak_memory.sh

# krunch prob against icepool 2.1.3 (installed from PyPI into target/peers-venv):
# same queries, identical distributions to 1e-12, speed-up per query.
bench-peers:
	$(CARGO) build --release --locked
	$(CARGO) bench --locked --bench expressions
	python3 -m venv target/peers-venv
	target/peers-venv/bin/pip install --quiet icepool==2.1.3
	target/peers-venv/bin/python benches/peers.py target/peers-venv/bin/python ./target/release/krunch

# krunch run against vectorised numpy 2.4.6 Monte Carlo loops (whole arrays of
# trials, PCG64 dice) of two rules at their test points: trials/s on one core,
# each estimate held to krunch's exact value (exit 1 beyond |z| = 5).
bench-numpy:
	$(CARGO) build --release --locked
	python3 -m venv target/peers-venv
	target/peers-venv/bin/pip install --quiet numpy==2.4.6
	target/peers-venv/bin/python benches/numpy_peers.py ./target/release/krunch

lint:
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --all-targets --locked -- -D warnings

fmt:
	$(CARGO) fmt --all

clean:
	$(CARGO) clean
