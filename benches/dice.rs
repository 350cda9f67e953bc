//! Batched dice vs one `random_range` call per die, in the same run.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use krunch::dice::{BatchedRoller, Roller, split_word};
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::hint::black_box;

const DICE: u64 = 1 << 20;

fn d6(c: &mut Criterion) {
    let mut g = c.benchmark_group("d6");
    g.throughput(Throughput::Elements(DICE));
    g.bench_function("naive random_range per die", |b| {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        b.iter(|| {
            let mut sum = 0u64;
            for _ in 0..DICE {
                sum += u64::from(rng.random_range(1..=6u32));
            }
            black_box(sum)
        })
    });
    g.bench_function("batched roller (mixed-radix, any die)", |b| {
        let mut r = BatchedRoller::new(1, &[0]);
        b.iter(|| {
            let mut sum = 0u64;
            for _ in 0..DICE {
                sum += u64::from(r.d6());
            }
            black_box(sum)
        })
    });
    g.bench_function("batched 8 per word (split_word)", |b| {
        let mut r = BatchedRoller::new(1, &[0]);
        b.iter(|| {
            let mut sum = 0u64;
            for _ in 0..DICE / 8 {
                let d: [u32; 8] = split_word(r.next_word(), 6);
                sum += d.iter().map(|&x| u64::from(x) + 1).sum::<u64>();
            }
            black_box(sum)
        })
    });
    g.finish();
}

/// Filling a buffer with D6 results: the form a pool mechanic consumes.
fn d6_buffer(c: &mut Criterion) {
    let mut g = c.benchmark_group("d6_buffer");
    g.throughput(Throughput::Elements(DICE));
    let mut buf = vec![0u8; DICE as usize];
    g.bench_function("naive random_range per die", |b| {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        b.iter(|| {
            for d in buf.iter_mut() {
                *d = rng.random_range(1..=6u8);
            }
            black_box(&buf);
        })
    });
    g.bench_function("batched fill_d6 (16 per word)", |b| {
        let mut r = BatchedRoller::new(1, &[0]);
        b.iter(|| {
            r.fill_d6(&mut buf);
            black_box(&buf);
        })
    });
    g.finish();
}

criterion_group!(benches, d6, d6_buffer);
criterion_main!(benches);
