# krunch: `make run` runs every bundled spec; `make test` passes the tests.
CARGO ?= cargo
SPECS := $(wildcard experiments/*.toml)

.PHONY: run test bench lint fmt clean

# Release build, then every spec in experiments/ into reports/.
run:
	$(CARGO) build --release --locked
	./target/release/krunch run $(SPECS)

# Statistical tests run many trials: always in the optimised profile.
test:
	$(CARGO) build --release --locked
	$(CARGO) test --release --locked

# Criterion benchmarks plus the 1e9-trial peak-memory run (see docs/BENCHMARKS.md).
bench:
	$(CARGO) bench --locked
	$(CARGO) build --release --locked
	benches/peak_memory.sh

lint:
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --all-targets --locked -- -D warnings

fmt:
	$(CARGO) fmt --all

clean:
	$(CARGO) clean
