//! Shooting by shot tables: the Monte Carlo of the attacks the shot laws
//! cover ([`super::shot_laws`]), each step drawn from its exact law with
//! one random word.
//!
//! A trial is the set-up (Sustained Fire dice and their jams' Ammo Rolls),
//! the burst's aims (the to-hit rolls with the Ammo Rolls they take, the
//! rule's `aim`), the hits' landings on the target (Pinning, fire, wound,
//! save, Damage, Injury: the rule's `land`), then the end (the exploded
//! weapon's hit on the firer, escape from Pinning, Recovery). The rule
//! resolves shot by shot, aim then landing; an aim reads nothing a landing
//! changes (not the target) and a landing nothing an aim changes (not the
//! weapon's state), so drawing all the aims first and then the landings
//! gives the same joint law. The weapon's hit on the firer ("The Warrior
//! takes a Hit from the weapon at its usual Strength -1", once: the weapon
//! is useless after) comes at its first explosion in the rule, on dice of
//! its own, and no later step reads what it does (only the
//! `p_firer_wounded` metric): drawing it at the end, where the weapon has
//! exploded, gives the same joint law, and leaves an aim's law free of the
//! weapon's state (a D6 to hit and, on a natural 6, the Ammo Roll's D6).
//! The aims of a burst of `n` shots are then one draw from the law of `n`
//! aims (the hits and the flags the Ammo Rolls raise), the landings one a
//! hit from the law at the target's condition, the end from the law at the
//! condition, the explosion and Pinning. Where no aim can hit (out of
//! range, or past the 7+ chart) no landing can happen: a leaner loop
//! counts the condition and flags ([`ShotTables::count_misses`]).
//!
//! Each step's law is found in whole counts: every dice path of the
//! rule's own step is walked, a path of dice with `n1, n2, ...` sides
//! weighs `L / (n1 n2 ...)` for `L` the least common multiple of those
//! products, and the weights are divided by their greatest common
//! divisor; the law of `n` aims is the law of `n - 1` aims, each of its
//! states followed by one more aim's paths. The set-up, landing and end
//! laws (denominator `D` at most [`MOST_ENTRIES`]) are laid out as tables
//! of `D` entries, each outcome written as many times as its count, and a
//! draw is one digit in `0..D`, read by multiply-high (a relative bias of
//! at most `D / 2^64`, within the roller's
//! [`BATCH_LIMIT`](crate::dice::BATCH_LIMIT) bound). The aims' laws
//! (denominators up to `36^6` for six shots) are alias tables in whole
//! numbers ([`alias_columns`]): one word gives a column and a fraction
//! that picks the column's own outcome or its alias. Each draw reads a
//! word of its own, but for the end's digit, which reads what the set-up's
//! digit left of its word (the two ranges' product within the same bound).
//!
//! These are the steps' exact laws, cached per condition, never a trial's
//! final law: the set-up, the aims, the landings and the end chain draw by
//! draw, and the exact evaluator
//! ([`super::shot_laws::ShotLaws::exact`], built from whole shots by
//! another enumeration with floating-point laws) is checked by them.
//!
//! A trial's ending is counted in three small dense tables, not as one
//! joint key: what the rule's `record_steered` reads (the condition, hits,
//! Pinning and the end's flags), the wound rolls with the unsaved wounds
//! and the flags no later step reads (fire, ammunition, the firer), and
//! the Damage. Every metric reads from one of the three.

use super::shot_laws::{
    EVENTUALLY_OUT, FIRER_WOUNDED, ON_FIRE, OUT_OF_AMMO, PINNED, PINNED_THROUGH, flags_of,
};
use super::{ShotRule, ShotState, ledger};
use crate::dice::{BatchedRoller, LaneWords, MetricSink, Roller, Tally, Times};
use crate::engine::step_model::Mechanic;
use crate::systems::gce::warrior::Condition;
use std::collections::BTreeMap;

/// Largest denominator of one step's law laid out as a table.
pub const MOST_ENTRIES: u64 = 1 << 16;

/// Most dice paths walked for one step's law.
const MOST_PATHS: u64 = 1 << 18;

/// Fields of a packed move: hits, wound rolls passed, unsaved wounds (a
/// byte each), Damage (16 bits), then the flags raised (a byte, OR-ed) and
/// the condition the move leaves the trial at (16 bits).
const HITS_AT: u32 = 0;
const WOUNDS_AT: u32 = 8;
const UNSAVED_AT: u32 = 16;
const DAMAGE_AT: u32 = 24;
const FLAGS_AT: u32 = 40;
const CORE_AT: u32 = 48;
/// The fields that add up.
const ADDED: u64 = (1 << FLAGS_AT) - 1;

/// Why a step's law does not fit a table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NoTable(pub &'static str);

/// Dice that walk every path of a step in turn: a path's dice are read
/// first to last, the last die that can show a higher face moves on, and
/// the dice after it are laid anew by the next run.
struct Paths {
    faces: Vec<u32>,
    sides: Vec<u32>,
    at: usize,
}

impl Roller for Paths {
    /// A die of one side shows 1 and takes no place on the path.
    fn roll(&mut self, sides: u32) -> u32 {
        if sides <= 1 {
            return 1;
        }
        if self.at == self.faces.len() {
            self.faces.push(1);
            self.sides.push(sides);
        }
        let face = self.faces[self.at];
        self.at += 1;
        face
    }
}

/// The exact law of `run` on every dice path, as whole counts over one
/// denominator: `(outcome, count)` in first-met order, and the
/// denominator. Errors past [`MOST_PATHS`] paths or a denominator past
/// [`MOST_ENTRIES`].
fn counted_law<T: Ord + Clone>(
    mut run: impl FnMut(&mut dyn FnMut(u32) -> u32) -> T,
) -> Result<(Vec<(T, u64)>, u64), NoTable> {
    let mut dice = Paths {
        faces: Vec::new(),
        sides: Vec::new(),
        at: 0,
    };
    // (outcome, product of the path's sides)
    let mut paths: Vec<(T, u64)> = Vec::new();
    loop {
        dice.at = 0;
        let end = run(&mut |sides| dice.roll(sides));
        dice.faces.truncate(dice.at);
        dice.sides.truncate(dice.at);
        let product = dice.sides.iter().map(|&s| u64::from(s)).product::<u64>();
        if paths.len() as u64 >= MOST_PATHS || product > MOST_ENTRIES * MOST_ENTRIES {
            return Err(NoTable("a step of too many dice paths"));
        }
        paths.push((end, product));
        // the odometer: the last die below its top face moves on
        loop {
            match (dice.faces.last_mut(), dice.sides.last()) {
                (None, _) => {
                    return law_of(paths);
                }
                (Some(f), Some(&s)) if *f < s => {
                    *f += 1;
                    break;
                }
                _ => {
                    dice.faces.pop();
                    dice.sides.pop();
                }
            }
        }
    }
}

fn gcd<T: Copy + PartialEq + Default + std::ops::Rem<Output = T>>(mut a: T, mut b: T) -> T {
    while b != T::default() {
        (a, b) = (b, a % b);
    }
    a
}

/// Paths weighed over their least common denominator, counts of equal
/// outcomes added, everything divided by the counts' common divisor.
fn law_of<T: Ord + Clone>(paths: Vec<(T, u64)>) -> Result<(Vec<(T, u64)>, u64), NoTable> {
    let mut lcm = 1u64;
    for (_, p) in &paths {
        lcm = lcm / gcd(lcm, *p) * p;
        if lcm > MOST_ENTRIES * MOST_ENTRIES {
            return Err(NoTable("a step's law of too fine a denominator"));
        }
    }
    let mut order: Vec<T> = Vec::new();
    let mut counts: BTreeMap<T, u64> = BTreeMap::new();
    for (t, p) in paths {
        let c = counts.entry(t.clone()).or_insert_with(|| {
            order.push(t);
            0
        });
        *c += lcm / p;
    }
    // every path counted once over the common denominator
    assert_eq!(
        counts.values().sum::<u64>(),
        lcm,
        "a law's counts fill its table"
    );
    let g = counts.values().fold(lcm, |g, &c| gcd(g, c));
    let denominator = lcm / g;
    if denominator > MOST_ENTRIES {
        return Err(NoTable("a step's law of too fine a denominator"));
    }
    let law = order
        .into_iter()
        .map(|t| {
            let c = counts[&t] / g;
            (t, c)
        })
        .collect();
    Ok((law, denominator))
}

/// A law as a table: `range` entries from `offset` of an id table.
#[derive(Clone, Copy, Debug, Default)]
struct Slot {
    offset: u32,
    range: u32,
}

/// One column of an alias table of packed moves (Walker's method): a word
/// times the table's column count gives the column (the product's high
/// half) and a fraction (its low half); below `keep` the column's own
/// move, else its alias.
#[derive(Clone, Copy, Debug, Default)]
struct Column {
    keep: u64,
    own: u64,
    alias: u64,
}

/// The alias columns of `law` (packed moves and whole counts over
/// `denominator`, under `2^62`), laid out in whole numbers: with `m`
/// columns each holds `denominator` units, a move's count `m` times over;
/// a column short of its units keeps its own move for
/// `floor(2^64 units / denominator)` of the fractions and fills the rest
/// from a column with more than its units. Every move's share is then
/// exact to within `2^-64` a column, and the columns are met `floor` or
/// `ceil` of `2^64 / m` times each (a relative bias of at most `m /
/// 2^64`, as [`digit`]'s).
fn alias_columns(law: &[(u64, u128)], denominator: u128) -> Vec<Column> {
    let m = law.len() as u128;
    debug_assert_eq!(law.iter().map(|(_, c)| c).sum::<u128>(), denominator);
    let mut units: Vec<u128> = law.iter().map(|&(_, c)| c * m).collect();
    let (mut short, mut over): (Vec<usize>, Vec<usize>) =
        (0..law.len()).partition(|&i| units[i] < denominator);
    let mut columns: Vec<Column> = law
        .iter()
        .map(|&(mv, _)| Column {
            keep: u64::MAX,
            own: mv,
            alias: mv,
        })
        .collect();
    while let (Some(&s), Some(&o)) = (short.last(), over.last()) {
        short.pop();
        columns[s].keep = ((units[s] << 64) / denominator) as u64;
        columns[s].alias = law[o].0;
        units[o] -= denominator - units[s];
        if units[o] < denominator {
            over.pop();
            short.push(o);
        }
    }
    // in whole numbers every column left holds exactly its units
    debug_assert!(short.iter().chain(&over).all(|&i| units[i] == denominator));
    columns
}

/// The move of alias column table `columns` (from `slot`) for `word`.
#[inline(always)]
fn alias_draw(columns: &[Column], slot: Slot, word: u64) -> u64 {
    let wide = u128::from(word) * u128::from(slot.range);
    let c = get(columns, slot.offset as usize + (wide >> 64) as usize);
    if (wide as u64) < c.keep {
        c.own
    } else {
        c.alias
    }
}

/// A landing's outcome: the packed fields, and the table of the target's
/// condition it leaves the trial at.
#[derive(Clone, Copy, Debug)]
struct Landing {
    packed: u64,
    next: Slot,
}

/// The weapon has exploded (a flag of the shot tables' own, beside
/// [`flags_of`]'s: the aims' tables are keyed by it).
const EXPLODED: u8 = 64;

/// A digit in `0..range` of a word of its own, by multiply-high: every
/// digit is met `floor` or `ceil` of `2^64 / range` times, a relative bias
/// of at most `range / 2^64` (under `2^-48` for the tables' ranges, within
/// the roller's [`BATCH_LIMIT`](crate::dice::BATCH_LIMIT) bound).
#[inline(always)]
fn digit(word: u64, range: u32) -> usize {
    ((u128::from(word) * u128::from(range)) >> 64) as usize
}

/// `v[i]`, for `v` of a power-of-two length (the tables are padded so),
/// the index masked by the length. The compiled loop still checks bounds
/// (the lengths are read at run time); the mask costs one `and` and is
/// kept only as harmless.
#[inline(always)]
fn get<T: Copy>(v: &[T], i: usize) -> T {
    v[i & (v.len() - 1)]
}

/// `v` padded with `fill` to a power-of-two length, for [`get`].
fn padded<T: Clone>(mut v: Vec<T>, fill: T) -> Vec<T> {
    v.resize(v.len().next_power_of_two(), fill);
    v
}

/// Trials drawn side by side ([`ShotTables::run`]).
const BLOCK: usize = 512;

/// A trial in a block: what its draws have added, the flags raised (OR-ed
/// packed moves), its target's condition and that condition's landing
/// table, and the aims or landings left.
#[derive(Clone, Copy, Debug, Default)]
struct Trial {
    acc: u64,
    flags: u64,
    slot: Slot,
    core: u32,
    left: u32,
    /// What is left of the set-up's word after its digit: the end's digit.
    rest: u64,
}

/// The tables of one shooting attack's steps.
#[derive(Debug)]
pub struct ShotTables {
    /// The target's conditions, in the order met.
    cores: Vec<Condition>,
    /// Entries of every table: the index of an outcome in its step's list.
    ids: Vec<u16>,
    setup: Slot,
    /// The set-up's outcomes laid out whole (not by id): the condition and
    /// flags packed, with the burst's shots in the hits' field.
    setup_moves: Vec<u64>,
    /// Most aims drawn at once.
    group: u32,
    /// The law of `k` aims (`0..=group`): `range` alias columns from
    /// `offset` of `aim_columns`.
    aims: Vec<Slot>,
    /// Alias columns of every aims law, each move hits and flags, packed.
    aim_columns: Vec<Column>,
    /// Per condition: a hit's landing table.
    land: Vec<Slot>,
    /// Outcomes of every landing table.
    landings: Vec<Landing>,
    /// Per condition, the weapon exploded or not, and Pinned or not
    /// (`4 * core + 2 * exploded + pinned`): the end's table.
    end: Vec<Slot>,
    /// The ends' outcomes laid out whole: the flags they raise, packed.
    end_moves: Vec<u64>,
    /// Whether the end's digit is read from what the set-up's digit left
    /// of its word: the set-up's range times every end's stays within the
    /// roller's [`BATCH_LIMIT`](crate::dice::BATCH_LIMIT).
    shared_end: bool,
    /// No aim can hit (out of range, past the 7+ chart): no landing can
    /// happen, and one draw holds every burst's aims.
    misses_only: bool,
    /// Hits a trial can reach, plus one (the stride of the steered table).
    hit_span: usize,
    /// Damage a trial can reach, plus one.
    damage_span: usize,
}

/// A move's fields packed ([`HITS_AT`] and on).
fn pack(core: u16, hits: u8, wounds: u8, unsaved: u8, damage: u16, flags: u8) -> u64 {
    u64::from(hits) << HITS_AT
        | u64::from(wounds) << WOUNDS_AT
        | u64::from(unsaved) << UNSAVED_AT
        | u64::from(damage) << DAMAGE_AT
        | u64::from(flags) << FLAGS_AT
        | u64::from(core) << CORE_AT
}

fn field(packed: u64, at: u32, bits: u32) -> u64 {
    (packed >> at) & ((1 << bits) - 1)
}

/// The flags `record_steered` reads, as four bits.
#[inline(always)]
fn steered_bits(flags: u64) -> usize {
    usize::from(flags & u64::from(PINNED) != 0)
        + 2 * usize::from(flags & u64::from(PINNED_THROUGH) != 0)
        + 4 * usize::from(flags & u64::from(EVENTUALLY_OUT) != 0)
        + 8 * usize::from(flags & u64::from(EXPLODED) != 0)
}

/// The flags no later step reads (fire, ammunition, the firer), as three
/// bits.
#[inline(always)]
fn ledger_bits(flags: u64) -> usize {
    usize::from(flags & u64::from(ON_FIRE) != 0)
        + 2 * usize::from(flags & u64::from(OUT_OF_AMMO) != 0)
        + 4 * usize::from(flags & u64::from(FIRER_WOUNDED) != 0)
}

/// The flags of `s` a draw reports, the explosion's among them.
fn flags_with_explosion(s: &ShotState) -> u8 {
    flags_of(s) | if s.exploded { EXPLODED } else { 0 }
}

impl ShotTables {
    /// The tables of `rule`'s steps, or why one does not fit.
    pub fn build(rule: &ShotRule) -> Result<Self, NoTable> {
        let (setup_steps, _, end_steps) = rule.phases();
        let sh = &rule.shooting;
        // the set-up and the aims without the explosion's hit on the firer:
        // the end takes it ([`ShotTables`])
        let quiet = super::Shooting {
            firer: None,
            ..sh.clone()
        };
        let run = |on: &super::Shooting,
                   mut s: ShotState,
                   steps: std::ops::Range<usize>,
                   d: &mut dyn FnMut(u32) -> u32| {
            let mut dice = Dice(d);
            for i in steps {
                on.step(i, &mut dice, &mut s);
            }
            s
        };
        let mut cores: Vec<Condition> = Vec::new();
        let mut ids: Vec<u16> = Vec::new();
        let max_shots = sh.max_shots() as usize;
        // the set-up
        let (law, den) = counted_law(|d| run(&quiet, rule.start(), setup_steps.clone(), d))?;
        let mut setup_moves = Vec::new();
        let mut setup_law = Vec::new();
        for (s, count) in law {
            let core = id_of(s.target, &mut cores)?;
            setup_law.push((
                pack(core, s.shots_left, 0, 0, 0, flags_with_explosion(&s)),
                count,
            ));
        }
        let setup = lay_moves(&setup_law, den, &mut setup_moves);
        // the law of `k` aims for every `k` up to the most whose
        // denominator stays under `2^62`: `k - 1` aims' law, each of its
        // states followed by one more aim on every dice path (no aim reads
        // the target, and without the firer's hit an aim's law does not
        // depend on the weapon's state: the states are kept whole anyway)
        let mut aims = vec![Slot {
            offset: 0,
            range: 1,
        }];
        let mut aim_columns = vec![Column {
            keep: u64::MAX,
            own: 0,
            alias: 0,
        }];
        let mut states: Vec<(ShotState, u128)> = vec![(rule.start(), 1)];
        let mut den: u128 = 1;
        while aims.len() <= max_shots {
            let mut stepped = Vec::new();
            let mut lcm: u128 = 1;
            for (s, count) in &states {
                let (law, d) = counted_law(|dice| {
                    let mut t = s.clone();
                    quiet.aim(&mut Dice(dice), &mut t);
                    t
                })?;
                let d = u128::from(d);
                lcm = lcm / gcd(lcm, d) * d;
                stepped.push((*count, law, d));
            }
            if den * lcm >= 1 << 62 {
                break;
            }
            let mut next: BTreeMap<ShotState, u128> = BTreeMap::new();
            for (count, law, d) in stepped {
                for (t, n) in law {
                    *next.entry(t).or_default() += count * u128::from(n) * (lcm / d);
                }
            }
            let g = next.values().fold(den * lcm, |g, &c| gcd(g, c));
            den = den * lcm / g;
            states = next.into_iter().map(|(s, c)| (s, c / g)).collect();
            let mut moves: BTreeMap<u64, u128> = BTreeMap::new();
            for (s, count) in &states {
                *moves
                    .entry(pack(0, s.hits, 0, 0, 0, flags_with_explosion(s)))
                    .or_default() += count;
            }
            let law: Vec<(u64, u128)> = moves.into_iter().collect();
            aims.push(Slot {
                offset: aim_columns.len() as u32,
                range: law.len() as u32,
            });
            aim_columns.extend(alias_columns(&law, den));
        }
        let group = aims.len() - 1;
        if group == 0 && max_shots > 0 {
            return Err(NoTable("an aim's law of too fine a denominator"));
        }
        // a hit's landing at every condition it can lead to, in the order
        // met
        let mut land: Vec<Slot> = Vec::new();
        let mut landings: Vec<Landing> = Vec::new();
        let mut most_damage = 0u64;
        while land.len() < cores.len() {
            let mut s = rule.start();
            s.target = cores[land.len()];
            let (law, den) = counted_law(|d| {
                let mut t = s.clone();
                sh.land(&mut Dice(d), &mut t);
                t
            })?;
            let mut at_core = Vec::new();
            for (t, count) in law {
                let to = id_of(t.target, &mut cores)?;
                most_damage = most_damage.max(u64::from(t.damage));
                at_core.push((landings.len(), count));
                landings.push(Landing {
                    packed: pack(to, 0, t.wounds, t.unsaved, t.damage, flags_of(&t)),
                    next: Slot::default(),
                });
            }
            land.push(lay(&at_core, den, &mut ids));
        }
        for m in &mut landings {
            m.next = land[field(m.packed, CORE_AT, 16) as usize];
        }
        let mut end = Vec::new();
        let mut end_moves: Vec<u64> = Vec::new();
        for c in &cores {
            for exploded in [false, true] {
                for pinned in [false, true] {
                    let mut s = rule.start();
                    s.shots_left = 0;
                    s.target = *c;
                    s.exploded = exploded;
                    s.pinned = pinned;
                    let (law, den) = counted_law(|d| {
                        let mut t = s.clone();
                        if exploded {
                            sh.explosion_hits_firer(&mut Dice(d), &mut t);
                        }
                        flags_of(&run(sh, t, end_steps.clone(), d))
                            & (PINNED_THROUGH | EVENTUALLY_OUT | FIRER_WOUNDED)
                    })?;
                    let at: Vec<(u64, u64)> = law
                        .into_iter()
                        .map(|(f, count)| (u64::from(f) << FLAGS_AT, count))
                        .collect();
                    end.push(lay_moves(&at, den, &mut end_moves));
                }
            }
        }
        if u32::try_from(ids.len()).is_err()
            || landings.len() > usize::from(u16::MAX)
            || u32::try_from(setup_moves.len() + end_moves.len()).is_err()
        {
            return Err(NoTable("more outcomes than a table indexes"));
        }
        let shared_end = end
            .iter()
            .all(|e| u64::from(setup.range) * u64::from(e.range) <= crate::dice::BATCH_LIMIT);
        let misses_only = group >= max_shots
            && aim_columns
                .iter()
                .all(|c| field(c.own, HITS_AT, 8) == 0 && field(c.alias, HITS_AT, 8) == 0);
        // every field must hold a whole trial's sum
        let damage_span = max_shots as u64 * most_damage + 1;
        if max_shots > 255 || damage_span > 1 << 16 {
            return Err(NoTable("more hits or Damage than a trial's fields hold"));
        }
        let none = Slot::default();
        Ok(ShotTables {
            cores,
            ids: padded(ids, 0),
            setup,
            setup_moves: padded(setup_moves, 0),
            group: group as u32,
            aims: padded(aims, none),
            aim_columns: padded(
                aim_columns,
                Column {
                    keep: 0,
                    own: 0,
                    alias: 0,
                },
            ),
            land: padded(land, none),
            landings: padded(
                landings,
                Landing {
                    packed: 0,
                    next: none,
                },
            ),
            end: padded(end, none),
            end_moves: padded(end_moves, 0),
            shared_end,
            misses_only,
            hit_span: max_shots + 1,
            damage_span: damage_span as usize,
        })
    }

    /// `trials` trials where no aim can hit ([`ShotTables::misses_only`]):
    /// the set-up's digit, the burst's aims in one draw, the end's digit
    /// from the set-up word's remainder (or a word of its own), trial after
    /// trial with the generator's state held in registers; the target
    /// stays as the set-up left it and nothing adds up, so a trial's ending
    /// is its condition and flags, counted in one table and added to the
    /// three dense tables at the end (no hits, wounds or Damage).
    fn count_misses(
        &self,
        roller: &mut BatchedRoller,
        trials: u64,
        steered: &mut [u64],
        wounded: &mut [u64],
        damage: &mut [u64],
    ) {
        const LANES: usize = 4;
        let keys = (self.cores.len() << 8).next_power_of_two();
        let mut seen = vec![0u64; LANES * keys];
        let setup = self.setup;
        let exploded_at = FLAGS_AT + EXPLODED.trailing_zeros();
        let shared_end = self.shared_end;
        // a block at a time: the set-up's and the aims' draws for every
        // trial, then the end's and the count, so each pass's trials do
        // not wait on one another's loads
        let mut flags_of_trial = [0u64; BLOCK];
        let mut rests = [0u64; BLOCK];
        let mut done = 0u64;
        roller.lend(|lent| {
            while done < trials {
                let block = (trials - done).min(BLOCK as u64) as usize;
                for (f, r) in flags_of_trial[..block].iter_mut().zip(&mut rests[..block]) {
                    let wide = u128::from(lent.next_word()) * u128::from(setup.range);
                    let s = get(
                        &self.setup_moves,
                        setup.offset as usize + (wide >> 64) as usize,
                    );
                    let m = alias_draw(
                        &self.aim_columns,
                        get(&self.aims, field(s, HITS_AT, 8) as usize),
                        lent.next_word(),
                    );
                    *f = (s & !ADDED) | m;
                    *r = if shared_end {
                        wide as u64
                    } else {
                        lent.next_word()
                    };
                }
                for (i, (&flags, &rest)) in flags_of_trial[..block].iter().zip(&rests).enumerate() {
                    let core = (flags >> CORE_AT) as usize;
                    let exploded = ((flags >> exploded_at) & 1) as usize;
                    let slot = get(&self.end, 4 * core + 2 * exploded);
                    let end = get(
                        &self.end_moves,
                        slot.offset as usize + digit(rest, slot.range),
                    );
                    let key = ((flags | end) >> FLAGS_AT) as usize & (keys - 1);
                    seen[(i & (LANES - 1)) * keys + key] += 1;
                }
                done += block as u64;
            }
        });
        let hs = self.hit_span;
        for key in 0..keys {
            let n: u64 = (0..LANES).map(|lane| seen[lane * keys + key]).sum();
            if n == 0 {
                continue;
            }
            let (core, flags) = (key >> 8, (key & 0xff) as u64);
            steered[2 * (16 * core * hs + steered_bits(flags))] += n;
            wounded[2 * ledger_bits(flags)] += n;
            damage[0] += n;
        }
    }

    /// `trials` trials: the set-up's digit, the aims' draw (`group` aims a
    /// draw, every burst's in one where `group` reaches the most shots), a
    /// digit a hit's landing, the end's digit; each ending counted in the
    /// three dense tables, and recorded once per distinct entry when the
    /// chunk is done.
    ///
    /// A burst's aims are drawn before its landings, where the rule
    /// resolves shot by shot (aim, landing, aim, ...): an aim reads nothing
    /// a landing changes and a landing nothing an aim changes (the rule's
    /// `aim` and `land`), so the aims' outcomes and the landings' chain
    /// have the same joint law in either order.
    pub fn run(&self, rule: &ShotRule, roller: &mut BatchedRoller, trials: u64, tally: &mut Tally) {
        let cores = self.cores.len();
        let hs = self.hit_span;
        // two lanes side by side, trial after trial in turn, so a run of
        // the same entry does not wait on its own last count
        let mut steered = vec![0u64; 2 * cores * hs * 16];
        let mut wounded = vec![0u64; 2 * hs * hs * 8];
        let mut damage = vec![0u64; 2 * self.damage_span];
        let ids = &self.ids[..];
        let setup = self.setup;
        let group = self.group;
        let exploded_at = FLAGS_AT + EXPLODED.trailing_zeros();
        let one_draw = self.group + 1 >= self.hit_span as u32;
        let shared_end = self.shared_end;
        // a block of trials at a time, step by step across the block: the
        // trials with aims (then landings) left are listed, and each pass
        // draws for every listed trial, so no trial waits on its own last
        // draw and no branch asks what a trial has left; every draw reads
        // a word of its own, laid out before the pass, so no draw waits on
        // another's digits either
        if self.misses_only {
            self.count_misses(roller, trials, &mut steered, &mut wounded, &mut damage);
        }
        let mut state = [Trial::default(); BLOCK];
        let mut listed_at = [0u16; BLOCK];
        let mut words = [0u64; BLOCK];
        let mut more = [0u64; BLOCK];
        let mut done = if self.misses_only { trials } else { 0 };
        // the words of the passes, from streams of the chunk's own, eight
        // a vector where the machine has AVX-512
        let mut source = (done < trials).then(|| LaneWords::new(roller));
        while done < trials {
            let source = source.as_mut().expect("seeded where trials are left");
            let block = (trials - done).min(BLOCK as u64) as usize;
            // the set-up's digit, then the first `group` aims' draw (a
            // burst of no shots draws from the certain law of no aims); the
            // set-up word's remainder is kept for the end's digit
            source.fill(&mut words[..block], roller);
            source.fill(&mut more[..block], roller);
            let mut listed = 0;
            for (i, t) in state[..block].iter_mut().enumerate() {
                let wide = u128::from(words[i & (BLOCK - 1)]) * u128::from(setup.range);
                let s = get(
                    &self.setup_moves,
                    setup.offset as usize + (wide >> 64) as usize,
                );
                let shots = field(s, HITS_AT, 8) as u32;
                let k = shots.min(group);
                let m = alias_draw(
                    &self.aim_columns,
                    get(&self.aims, k as usize),
                    more[i & (BLOCK - 1)],
                );
                // the set-up adds nothing (its hits' field holds the shots)
                let acc = m & ADDED;
                let core = (s >> CORE_AT) as u32;
                // with every burst's aims in that draw, the hits are known:
                // the trial is listed for its landings
                let left = if one_draw {
                    field(acc, HITS_AT, 8) as u32
                } else {
                    shots - k
                };
                *t = Trial {
                    acc,
                    flags: (s & !ADDED) | m,
                    slot: get(&self.land, core as usize),
                    core,
                    left,
                    rest: wide as u64,
                };
                listed_at[listed & (BLOCK - 1)] = i as u16;
                listed += usize::from(left > 0);
            }
            if !one_draw {
                // more aims, up to `group` a draw, where a burst has more
                // shots
                while listed > 0 {
                    source.fill(&mut words[..listed], roller);
                    let mut still = 0;
                    for j in 0..listed {
                        let i = usize::from(listed_at[j & (BLOCK - 1)]);
                        let t = &mut state[i & (BLOCK - 1)];
                        let k = t.left.min(group);
                        let m = alias_draw(
                            &self.aim_columns,
                            get(&self.aims, k as usize),
                            words[j & (BLOCK - 1)],
                        );
                        t.acc += m & ADDED;
                        t.flags |= m;
                        t.left -= k;
                        listed_at[still & (BLOCK - 1)] = i as u16;
                        still += usize::from(t.left > 0);
                    }
                    listed = still;
                }
                for (i, t) in state[..block].iter_mut().enumerate() {
                    let hits = field(t.acc, HITS_AT, 8) as u32;
                    t.left = hits;
                    listed_at[listed & (BLOCK - 1)] = i as u16;
                    listed += usize::from(hits > 0);
                }
            }
            // the hits' landings, one a draw, on the target as it stands
            while listed > 0 {
                source.fill(&mut words[..listed], roller);
                let mut still = 0;
                for j in 0..listed {
                    let i = usize::from(listed_at[j & (BLOCK - 1)]);
                    let t = &mut state[i & (BLOCK - 1)];
                    let d = digit(words[j & (BLOCK - 1)], t.slot.range);
                    let m = get(
                        &self.landings,
                        usize::from(get(ids, t.slot.offset as usize + d)),
                    );
                    t.acc += m.packed & ADDED;
                    t.flags |= m.packed;
                    t.slot = m.next;
                    t.core = (m.packed >> CORE_AT) as u32;
                    t.left -= 1;
                    listed_at[still & (BLOCK - 1)] = i as u16;
                    still += usize::from(t.left > 0);
                }
                listed = still;
            }
            // the end's digit (from the set-up word's remainder, or a word
            // of its own where the two ranges together pass the roller's
            // bound), then the trial's ending counted
            if !shared_end {
                source.fill(&mut words[..block], roller);
                for (t, &w) in state[..block].iter_mut().zip(&words) {
                    t.rest = w;
                }
            }
            for (i, t) in state[..block].iter().enumerate() {
                let lane = i & 1;
                let core = t.core as usize;
                let pinned = ((t.flags >> FLAGS_AT) & u64::from(PINNED)) as usize;
                let exploded = ((t.flags >> exploded_at) & 1) as usize;
                let slot = get(&self.end, 4 * core + 2 * exploded + pinned);
                let end = get(
                    &self.end_moves,
                    slot.offset as usize + digit(t.rest, slot.range),
                );
                let flags = (t.flags | end) >> FLAGS_AT;
                let acc = t.acc;
                let hits = field(acc, HITS_AT, 8) as usize;
                let wounds = field(acc, WOUNDS_AT, 8) as usize;
                let unsaved = field(acc, UNSAVED_AT, 8) as usize;
                let dealt = field(acc, DAMAGE_AT, 16) as usize;
                steered[2 * (16 * (core * hs + hits) + steered_bits(flags)) + lane] += 1;
                wounded[2 * (8 * (wounds * hs + unsaved) + ledger_bits(flags)) + lane] += 1;
                damage[2 * dealt + lane] += 1;
            }
            done += block as u64;
        }
        let ledger_metrics = rule.ledger_metrics();
        let mut record =
            |count: u64, s: &ShotState, what: &mut dyn FnMut(&ShotState, &mut Times)| {
                if count > 0 {
                    what(
                        s,
                        &mut Times {
                            tally: &mut *tally,
                            count,
                        },
                    );
                }
            };
        for (i, pair) in steered.chunks_exact(2).enumerate() {
            let bits = i % 16;
            let hits = (i / 16) % hs;
            let mut s = rule.start();
            s.shots_left = 0;
            s.target = self.cores[i / 16 / hs];
            s.exploded = bits & 8 != 0;
            s.hits = hits as u8;
            s.pinned = bits & 1 != 0;
            s.pinned_through_turn = bits & 2 != 0;
            s.eventually_out = bits & 4 != 0;
            record(pair[0] + pair[1], &s, &mut |s, sink| {
                rule.record_steered(s, sink)
            });
        }
        // ledger entries: 0 wound rolls, 1 unsaved, 2 Damage, 3 wounded,
        // 4 fire, 5 ammunition, 6 the firer
        for (i, pair) in wounded.chunks_exact(2).enumerate() {
            let bits = i % 8;
            let mut s = rule.start();
            s.unsaved = ((i / 8) % hs) as u8;
            s.wounds = (i / 8 / hs) as u8;
            s.on_fire = bits & 1 != 0;
            s.out_of_ammo = bits & 2 != 0;
            s.firer_wounded = bits & 4 != 0;
            record(pair[0] + pair[1], &s, &mut |s, sink| {
                rule.record_wounds(s.wounds, sink);
                for (k, (metric, value)) in ledger_metrics.iter().zip(ledger(s)).enumerate() {
                    if let (Some(metric), false) = (metric, k == 2) {
                        sink.record(*metric, value);
                    }
                }
            });
        }
        if let Some(metric) = ledger_metrics[2] {
            for (dealt, pair) in damage.chunks_exact(2).enumerate() {
                let mut s = rule.start();
                s.damage = dealt as u16;
                record(pair[0] + pair[1], &s, &mut |s, sink| {
                    sink.record(metric, ledger(s)[2])
                });
            }
        }
        tally.add_trials(trials);
    }
}

/// The index of condition `c` among `cores`, added where new.
fn id_of(c: Condition, cores: &mut Vec<Condition>) -> Result<u16, NoTable> {
    if let Some(i) = cores.iter().position(|&k| k == c) {
        return Ok(i as u16);
    }
    let i = u16::try_from(cores.len())
        .map_err(|_| NoTable("more target conditions than a table indexes"))?;
    cores.push(c);
    Ok(i)
}

/// Lays `law` (outcome ids and counts over `denominator`) out at the end
/// of `ids`.
fn lay(law: &[(usize, u64)], denominator: u64, ids: &mut Vec<u16>) -> Slot {
    let offset = ids.len() as u32;
    for &(id, count) in law {
        ids.extend(std::iter::repeat_n(id as u16, count as usize));
    }
    Slot {
        offset,
        range: denominator as u32,
    }
}

/// Lays `law` (whole moves and counts over `denominator`) out at the end
/// of `moves`.
fn lay_moves(law: &[(u64, u64)], denominator: u64, moves: &mut Vec<u64>) -> Slot {
    let offset = moves.len() as u32;
    for &(m, count) in law {
        moves.extend(std::iter::repeat_n(m, count as usize));
    }
    Slot {
        offset,
        range: denominator as u32,
    }
}

/// A closure as dice.
struct Dice<'a>(&'a mut dyn FnMut(u32) -> u32);

impl Roller for Dice<'_> {
    fn roll(&mut self, sides: u32) -> u32 {
        (self.0)(sides)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::gce::shooting::ShootingModel;
    use crate::systems::{Model, ParamValue, Params};

    /// The benchmarks' full auto point (the scenario's fourth test point):
    /// an 'Eavy Shoota, 2 Sustained Fire dice, BS 2 at 18" (5+ to hit), S4
    /// D3 Auto ammo at T4 W2 Sv4+ (6+ after the -2), WS 1 BS 1; `extra`
    /// changes or adds parameters.
    fn full_auto(extra: &[(&str, &str)]) -> ShootingModel {
        let base = [
            ("weapon", "eavy_shoota"),
            ("long_range", "18"),
            ("short_hit", "0"),
            ("long_hit", "0"),
            ("strength", "4"),
            ("damage", "D3"),
            ("ammo", "auto"),
            ("fire_mode", "full_auto"),
            ("bs", "2"),
            ("range", "18"),
            ("toughness", "4"),
            ("wounds", "2"),
            ("save", "4"),
            ("target_ws", "1"),
            ("target_bs", "1"),
        ];
        let mut p = Params::new();
        for (k, v) in base.iter().chain(extra) {
            p.set(*k, ParamValue::from_text(v));
        }
        crate::systems::gce::build_shooting(&p, &Params::new()).unwrap()
    }

    fn tables(m: &ShootingModel) -> ShotTables {
        ShotTables::build(m.model.mechanic()).unwrap()
    }

    /// Entries of `slot` whose outcome passes `pick`, and the slot's range.
    fn share(t: &ShotTables, slot: Slot, pick: impl Fn(u16) -> bool) -> (u64, u64) {
        let entries = &t.ids[slot.offset as usize..(slot.offset + slot.range) as usize];
        let n = entries.iter().filter(|&&id| pick(id)).count() as u64;
        (n, u64::from(slot.range))
    }

    /// The probability aims law `k`'s alias columns give the moves that
    /// pass `pick`.
    fn implied(t: &ShotTables, k: usize, pick: &dyn Fn(u64) -> bool) -> f64 {
        let slot = t.aims[k];
        implied_by(
            &t.aim_columns[slot.offset as usize..(slot.offset + slot.range) as usize],
            pick,
        )
    }

    /// The probability alias `columns` give the moves that pass `pick`.
    fn implied_by(columns: &[Column], pick: &dyn Fn(u64) -> bool) -> f64 {
        let whole = 18_446_744_073_709_551_616.0;
        let mut p = 0.0;
        for c in columns {
            let kept = if c.keep == u64::MAX {
                1.0
            } else {
                c.keep as f64 / whole
            };
            p += (f64::from(u8::from(pick(c.own))) * kept
                + f64::from(u8::from(pick(c.alias))) * (1.0 - kept))
                / columns.len() as f64;
        }
        p
    }

    /// Entries of `slot` of a table of whole moves that pass `pick`, and
    /// the slot's range.
    fn share_moves(moves: &[u64], slot: Slot, pick: impl Fn(u64) -> bool) -> (u64, u64) {
        let entries = &moves[slot.offset as usize..(slot.offset + slot.range) as usize];
        let n = entries.iter().filter(|&&m| pick(m)).count() as u64;
        (n, u64::from(slot.range))
    }

    /// `n / range == num / den`, in whole numbers.
    fn exactly((n, range): (u64, u64), num: u64, den: u64) -> bool {
        n * den == num * range
    }

    #[test]
    fn paths_are_weighed_over_their_least_common_denominator() {
        // two D6 summed: 36 paths, the sums' counts 1..6..1
        let (law, den) = counted_law(|d| d(6) + d(6)).unwrap();
        assert_eq!(den, 36);
        let counts: Vec<(u32, u64)> = {
            let mut l = law.clone();
            l.sort();
            l
        };
        let want: Vec<(u32, u64)> = (2..=12)
            .map(|s: u32| (s, 6 - (s as i64 - 7).unsigned_abs()))
            .collect();
        assert_eq!(counts, want);
        // a D6, and on a 6 a D3: faces 1-5 weigh 1/6 = 3/18, each 6-then-D3
        // path 1/18
        let (law, den) = counted_law(|d| {
            let a = d(6);
            if a == 6 { 10 * d(3) } else { a }
        })
        .unwrap();
        assert_eq!(den, 18);
        for (face, count) in law {
            assert_eq!(count, if face < 10 { 3 } else { 1 }, "{face}");
        }
        // one outcome only: a certain law of one entry
        let (law, den) = counted_law(|d| d(6) > 0).unwrap();
        assert_eq!((law, den), (vec![(true, 1)], 1));
    }

    /// Alias columns in whole numbers: every outcome's share of the words
    /// is its count over the denominator (to within `2^-64` a column), for
    /// a law whose counts are far from even, one of a single outcome, and
    /// two equal outcomes; a word's high part picks the column and its low
    /// part the column's own outcome or its alias.
    #[test]
    fn alias_columns_give_each_outcome_its_count() {
        let law: Vec<(u64, u128)> = vec![(1, 1), (2, 2), (3, 3), (4, 30), (5, 1_000)];
        let den: u128 = 1_036;
        let columns = alias_columns(&law, den);
        assert_eq!(columns.len(), 5);
        for &(m, count) in &law {
            let p = implied_by(&columns, &|x| x == m);
            let want = count as f64 / den as f64;
            assert!((p - want).abs() < 1e-15, "{m}: {p} v {want}");
        }
        let one = alias_columns(&[(7, 5)], 5);
        assert_eq!((one[0].keep, one[0].own), (u64::MAX, 7));
        let even = alias_columns(&[(1, 1), (2, 1)], 2);
        assert!(even.iter().all(|c| c.keep == u64::MAX && c.own == c.alias));
        // the word 0 is column 0 kept; the last word the last column's
        // alias, where it has one
        let slot = Slot {
            offset: 0,
            range: 5,
        };
        let padded_columns = padded(columns.clone(), Column::default());
        assert_eq!(alias_draw(&padded_columns, slot, 0), columns[0].own);
        let last = columns[4];
        let want = if last.keep == u64::MAX {
            last.own
        } else {
            last.alias
        };
        assert_eq!(alias_draw(&padded_columns, slot, u64::MAX), want);
    }

    /// The firer's hit at the end (Exploding Weapons: "The Warrior takes a
    /// Hit from the weapon at its usual Strength -1"): at the test point
    /// out of range (firer T3, Sv6+; the 'Eavy Shoota S4, save modifier
    /// -2), Strength 3 against Toughness 3 wounds on a 4+ (1/2) and the 6+
    /// save needs 8: none, so a weapon that exploded wounds its firer half
    /// the time and one that did not never; the escape from Pinning
    /// (Initiative 3, friend near: a 4+ or a 6 fails, 1/2) is independent
    /// of it: both 1/4. No aim can hit at 20" (long range 18"): the lean
    /// loop is taken there, not at 18".
    #[test]
    fn the_firers_hit_is_drawn_at_the_end_by_hand() {
        let firer = [
            ("firer_toughness", "3"),
            ("firer_save", "6"),
            ("friend_within_2in", "true"),
            ("target_initiative", "3"),
        ];
        let out = full_auto(&[&firer[..], &[("range", "20")]].concat());
        let t = tables(&out);
        assert!(t.misses_only);
        assert_eq!(t.group, 6);
        let flag = |p: u64, f: u8| (p >> FLAGS_AT) as u8 & f != 0;
        let end = |exploded: usize, pinned: usize| t.end[2 * exploded + pinned];
        let wounded = |m: u64| flag(m, FIRER_WOUNDED);
        assert!(exactly(share_moves(&t.end_moves, end(1, 0), wounded), 1, 2));
        assert!(exactly(share_moves(&t.end_moves, end(0, 0), wounded), 0, 1));
        assert!(exactly(
            share_moves(&t.end_moves, end(1, 1), |m| wounded(m)
                && flag(m, PINNED_THROUGH)),
            1,
            4
        ));
        // no aim wounds the firer now: the aims' law of one shot raises
        // only the explosion and the failed Ammo Roll
        assert!(t.aim_columns.iter().all(|c| !flag(c.own, FIRER_WOUNDED)));
        let near = full_auto(&firer);
        assert!(!tables(&near).misses_only);
    }

    /// The laid-out laws at the full auto point, against the seed's dice by
    /// hand.
    #[test]
    fn the_full_auto_laws_by_hand() {
        let m = full_auto(&[]);
        let t = tables(&m);
        let shots = |m: u64| field(m, HITS_AT, 8);
        let flag = |p: u64, f: u8| (p >> FLAGS_AT) as u8 & f != 0;
        // Sustained Fire dice 1,1,2,2,3,JAM: no shot when both jam (1/36),
        // six when both show 3 (1/36)
        assert!(exactly(
            share_moves(&t.setup_moves, t.setup, |m| shots(m) == 0),
            1,
            36
        ));
        assert!(exactly(
            share_moves(&t.setup_moves, t.setup, |m| shots(m) == 6),
            1,
            36
        ));
        // Auto ammo fails whenever a jam is tested: 1 - (5/6)^2 = 11/36;
        // explodes on its first 1: 1 - (35/36)^2 = 71/1296
        assert!(exactly(
            share_moves(&t.setup_moves, t.setup, |m| flag(m, OUT_OF_AMMO)),
            11,
            36
        ));
        assert!(exactly(
            share_moves(&t.setup_moves, t.setup, |m| flag(m, EXPLODED)),
            71,
            1296
        ));
        // an aim: the to-hit D6, and on a natural 6 the Ammo Roll's D6 (36
        // paths' worth a shot): the law of all six aims has a denominator
        // of 36^6, under the 2^62 an aims law may have
        assert_eq!(t.group, 6);
        let aims = |k: usize, pick: &dyn Fn(u64) -> bool| implied(&t, k, pick);
        let near = |a: f64, b: f64| (a - b).abs() < 1e-13;
        // no aim: no move
        assert!(near(aims(0, &|m| m == 0), 1.0));
        // one aim: 5+ hits (1/3); a natural 6 (1/6) takes an Ammo Roll
        // that Auto ammo fails, and explodes on a 1 (1/36)
        assert!(near(aims(1, &|m| field(m, HITS_AT, 8) == 1), 1.0 / 3.0));
        assert!(near(aims(1, &|m| flag(m, OUT_OF_AMMO)), 1.0 / 6.0));
        assert!(near(aims(1, &|m| flag(m, EXPLODED)), 1.0 / 36.0));
        // two aims: both hit 1/9; an explosion 1 - (35/36)^2; three aims:
        // all hit 1/27; six aims: all hit 3^-6, none 2^6/3^6, no explosion
        // (35/36)^6, no Ammo Roll (5/6)^6
        assert!(near(aims(2, &|m| field(m, HITS_AT, 8) == 2), 1.0 / 9.0));
        assert!(near(aims(2, &|m| flag(m, EXPLODED)), 71.0 / 1296.0));
        assert!(near(aims(3, &|m| field(m, HITS_AT, 8) == 3), 1.0 / 27.0));
        assert!(near(aims(6, &|m| field(m, HITS_AT, 8) == 6), 1.0 / 729.0));
        assert!(near(aims(6, &|m| field(m, HITS_AT, 8) == 0), 64.0 / 729.0));
        assert!(near(
            aims(6, &|m| !flag(m, EXPLODED)),
            (35.0f64 / 36.0).powi(6)
        ));
        assert!(near(
            aims(6, &|m| !flag(m, OUT_OF_AMMO)),
            (5.0f64 / 6.0).powi(6)
        ));
        // a hit's landing on the fresh target: 4+ wounds (1/2); the 6+
        // save fails 5/6: unsaved 5/12; D3 Damage 3 one time in three
        // (5/36); Damage 2 or 3 takes both Wounds (5/12 * 2/3), then the
        // Injury roll: 3-5 Down (5/36), 1-2 a Flesh Wound that ends WS 1
        // BS 1 or 6: Out of Action (5/36); every hit pins
        assert_eq!(t.cores[0], m.shooting().target.stats.fresh());
        let fresh = t.land[0];
        let mv = |i: u16| t.landings[usize::from(i)].packed;
        let status = |i: u16| t.cores[(mv(i) >> CORE_AT) as usize].status;
        assert!(exactly(
            share(&t, fresh, |i| field(mv(i), WOUNDS_AT, 8) == 1),
            1,
            2
        ));
        assert!(exactly(
            share(&t, fresh, |i| field(mv(i), UNSAVED_AT, 8) == 1),
            5,
            12
        ));
        assert!(exactly(
            share(&t, fresh, |i| field(mv(i), DAMAGE_AT, 16) == 3),
            5,
            36
        ));
        assert!(exactly(
            share(&t, fresh, |i| status(i) == super::super::Status::Down),
            5,
            36
        ));
        assert!(exactly(
            share(&t, fresh, |i| status(i)
                == super::super::Status::OutOfAction),
            5,
            36
        ));
        assert!(exactly(share(&t, fresh, |i| flag(mv(i), PINNED)), 1, 1));
    }

    fn run(m: &ShootingModel, seed: u64, trials: u64) -> Tally {
        let t = m.shot_tables().unwrap();
        let mut roller = BatchedRoller::new(seed, &[trials]);
        let mut tally = Tally::new(m.metrics().len());
        t.run(m.model.mechanic(), &mut roller, trials, &mut tally);
        tally
    }

    fn index(m: &ShootingModel, name: &str) -> usize {
        m.metrics().iter().position(|d| d.name == name).unwrap()
    }

    /// z of a proportion `count / n` against `p`.
    fn z_prob(count: u64, n: u64, p: f64) -> f64 {
        (count as f64 / n as f64 - p) / (p * (1.0 - p) / n as f64).sqrt()
    }

    /// The sampler against hand values at the full auto point: hits are a
    /// sum over N shots, N the two Sustained Fire dice (1,1,2,2,3,0: mean
    /// 1.5, variance 19/6 - 9/4 = 11/12 each), each hitting on 5+ (1/3):
    /// E = 3 * 1/3 = 1, Var = E[N] pq + p^2 Var(N) = 2/3 + 11/54 = 47/54;
    /// no hit: E[(2/3)^n] = (1 + 2 (2/3) + 2 (4/9) + 8/27) / 6 = 95/162 a
    /// die, squared. Four checks held to 5 standard errors each (a chance
    /// of 2.3e-6 all told under the law), at a fixed seed.
    #[test]
    fn full_auto_hits_by_hand() {
        let m = full_auto(&[]);
        assert_eq!(
            m.sampler(),
            crate::engine::Sampler::Custom(
                "shot tables (set-up, a burst's aims, each landing and the end a draw each)"
            )
        );
        let n = 1_000_000;
        let tally = run(&m, 11, n);
        assert_eq!(tally.trials(), n);
        let mean = tally.sum(index(&m, "mean_hits")) as f64 / n as f64;
        assert!(
            (mean - 1.0).abs() / (47.0 / 54.0 / n as f64).sqrt() < 5.0,
            "mean hits {mean}"
        );
        let none = (95.0f64 / 162.0).powi(2);
        let z = z_prob(tally.sum(index(&m, "hits=0")), n, none);
        assert!(z.abs() < 5.0, "no hit: z {z}");
        // six hits: both dice on 3 (1/36), every shot hits (1/3^6)
        let six = 1.0 / 36.0 / 729.0;
        let z = z_prob(tally.sum(index(&m, "hits=6")), n, six);
        assert!(z.abs() < 5.0, "six hits: z {z}");
        // every family counts each trial once
        let hits: u64 = (0..=6)
            .map(|k| tally.sum(index(&m, &format!("hits={k}"))))
            .sum();
        let wounds: u64 = (0..=6)
            .map(|k| tally.sum(index(&m, &format!("wounds={k}"))))
            .sum();
        assert_eq!((hits, wounds), (n, n));
        // the weapon explodes from a jam's Ammo Roll (a jam, then a 1:
        // 1/36) or a shot's (a natural 6, then a 1: 1/36 a shot); a die's
        // chance of none: (1/6)(5/6) + (2/6)(35/36) + (2/6)(35/36)^2 +
        // (1/6)(35/36)^3, squared for two dice
        let q = 35.0 / 36.0;
        let die = (5.0 / 6.0 + 2.0 * q + 2.0 * q * q + q * q * q) / 6.0;
        let z = z_prob(
            tally.sum(index(&m, "p_weapon_explodes")),
            n,
            1.0 - die * die,
        );
        assert!(z.abs() < 5.0, "explodes: z {z}");
    }

    /// Every metric against the shot laws' exact values (the other
    /// evaluator, built from floating-point laws of the same steps), out of
    /// range with the firer and the escape test, in range, and with D6
    /// Damage on 3 Wounds and three dice: probabilities by their binomial
    /// standard error, means by the sample's, each within 5.5 (about 100
    /// checks: a chance under 4e-6 all told), at fixed seeds; an outcome
    /// rarer than one a run by its Poisson tail at the same chance.
    #[test]
    fn every_metric_meets_the_exact_values() {
        let firer = [
            ("firer_toughness", "3"),
            ("firer_save", "6"),
            ("friend_within_2in", "true"),
            ("target_initiative", "3"),
        ];
        let cases: Vec<Vec<(&str, &str)>> = vec![
            [&firer[..], &[("range", "20")]].concat(),
            firer.to_vec(),
            vec![("damage", "D6"), ("wounds", "3"), ("sf_dice", "3")],
        ];
        let n = 400_000;
        for (k, case) in cases.iter().enumerate() {
            let m = full_auto(case);
            let exact = m.exact_or_why().unwrap();
            let tally = run(&m, 100 + k as u64, n);
            for (i, d) in m.metrics().iter().enumerate() {
                let (sum, sq) = (tally.sum(i) as f64, tally.sum_sq(i) as f64);
                let est = sum / n as f64;
                let var = if d.name.starts_with("mean") {
                    (sq / n as f64 - est * est).max(0.0)
                } else {
                    exact[i] * (1.0 - exact[i])
                };
                if var == 0.0 {
                    assert!((est - exact[i]).abs() < 1e-12, "{case:?} {}", d.name);
                    continue;
                }
                let z = (est - exact[i]) / (var / n as f64).sqrt();
                // a rare outcome (under one expected in the run) met at all
                // is many standard errors out: there its count is held to
                // its Poisson tail instead, at the same chance
                let rare = !d.name.starts_with("mean") && exact[i] * (n as f64) < 1.0;
                let ok = if rare {
                    poisson_tail(exact[i] * n as f64, sum as u64) > 4e-8
                } else {
                    z.abs() < 5.5
                };
                assert!(ok, "{case:?} {}: {est} v {} (z {z})", d.name, exact[i]);
            }
        }
    }

    /// P(X >= k) for X Poisson of mean `mean`.
    fn poisson_tail(mean: f64, k: u64) -> f64 {
        let mut term = (-mean).exp();
        let mut below = 0.0;
        for j in 0..k {
            below += term;
            term *= mean / (j + 1) as f64;
        }
        (1.0 - below).max(0.0)
    }

    /// Blocks of trials: any count is tallied whole, and a seed gives the
    /// same tallies every run, in range and out of it.
    #[test]
    fn any_count_is_tallied_once_and_the_same_every_run() {
        // in range, and out of range (the lean loop)
        for m in [full_auto(&[]), full_auto(&[("range", "20")])] {
            for n in [1, 511, 512, 513, 2000] {
                let a = run(&m, 5, n);
                let b = run(&m, 5, n);
                assert_eq!(a.trials(), n);
                let hits: u64 = (0..=6)
                    .map(|k| a.sum(index(&m, &format!("hits={k}"))))
                    .sum();
                assert_eq!(hits, n);
                for i in 0..m.metrics().len() {
                    assert_eq!((a.sum(i), a.sum_sq(i)), (b.sum(i), b.sum_sq(i)));
                }
            }
        }
    }
}
