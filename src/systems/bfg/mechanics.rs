//! Ramming, hit-and-run attacks, disengaging and celestial hazards, each a
//! [`Mechanic`] of fixed steps (exact and sampled from the same code).

use super::tables::{CRITICALS, hit_and_run, leadership_test};
use crate::dice::{FaceSums, GivenFaces, Metric, MetricSink, Roller, binomial_pmf};
use crate::engine::step_model::Mechanic;
use crate::systems::{MetricDecl, MetricList};

/// "Any dice that equal or beat the target's armour value score a point of
/// damage": one D6 against `armour`.
pub(super) fn beats(dice: &mut impl Roller, armour: u32) -> bool {
    dice.d6() >= armour
}

/// A pool of D6 against one armour value, counted as [`beats`] scores each
/// die: read sixteen dice a word when sampled, branched on the binomial law
/// of its points when enumerated (`n + 1` branches, not `6^n` paths).
#[derive(Clone, Debug)]
pub(super) struct Pool {
    dice: u32,
    faces: FaceSums,
    law: Vec<(u32, f64)>,
}

impl Pool {
    pub(super) fn new(dice: u32, armour: u32) -> Self {
        let scores = |face: u32| beats(&mut GivenFaces::new(&[face]), armour);
        let one = [1, 2, 3, 4, 5, 6].map(|f| u32::from(scores(f)));
        let p = f64::from(one.iter().sum::<u32>()) / 6.0;
        Pool {
            dice,
            faces: FaceSums::new(one),
            law: (0..=dice)
                .map(|k| (k, binomial_pmf(u64::from(dice), u64::from(k), p)))
                .filter(|(_, q)| *q > 0.0)
                .collect(),
        }
    }

    /// The points the pool scores.
    pub(super) fn roll(&self, dice: &mut impl Roller) -> u32 {
        dice.known(|| &self.law, |r| r.sum_d6_by(self.dice, &self.faces))
    }
}

/// Ramming (ALL AHEAD FULL – RAMMING SPEED!, RAMMING SUMMARY).
#[derive(Clone, Debug)]
pub struct Ram {
    /// Dice of the Leadership test (1, 2 or 3).
    pub test_dice: u32,
    /// Rammer's Leadership.
    pub leadership: i32,
    /// "roll 1D6 for each point of its starting damage capacity (not the
    /// damage capacity it has left)".
    pub rammer_starting: u32,
    /// Rammer's damage left before the ram.
    pub rammer_remaining: u32,
    /// "Any dice which equal or beat the ramming ship's front armour".
    pub rammer_front_armour: u32,
    /// Target's armour for the facing hit.
    pub target_armour: u32,
    /// Target's starting damage.
    pub target_starting: u32,
    /// Target's damage left before the ram.
    pub target_remaining: u32,
    /// "rolls a number of D6 equal to half its starting damage"; the full
    /// number "If the vessels are hitting head on ... or defence".
    pub return_dice: u32,
}

/// Ram outcome.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RamState {
    passed: bool,
    dealt: u32,
    taken: u32,
}

impl RamState {
    /// A ram that passed its test (or not, with nothing dealt or taken).
    pub(super) fn new(passed: bool, dealt: u32, taken: u32) -> Self {
        RamState {
            passed,
            dealt,
            taken,
        }
    }

    /// Whether the Leadership test to ram passed.
    pub(super) fn passed(&self) -> bool {
        self.passed
    }
}

/// Every metric of the ram scenario.
pub const RAM_METRICS: [MetricDecl; 9] = [
    MetricDecl::probability(
        "p_ram_succeeds",
        "P(ram succeeds)",
        "P(the Leadership test to ram passes)",
    ),
    MetricDecl::mean(
        "mean_damage_dealt",
        "mean damage dealt",
        "expected damage to the target",
    ),
    MetricDecl::mean(
        "mean_damage_taken",
        "mean damage taken",
        "expected damage to the rammer",
    ),
    MetricDecl::probability(
        "p_target_crippled",
        "P(target crippled)",
        "P(target has lost at least half its starting damage)",
    ),
    MetricDecl::probability(
        "p_target_destroyed",
        "P(target destroyed)",
        "P(target reduced to 0)",
    ),
    MetricDecl::probability(
        "p_rammer_crippled",
        "P(rammer crippled)",
        "P(rammer has lost at least half its starting damage)",
    ),
    MetricDecl::probability(
        "p_rammer_destroyed",
        "P(rammer destroyed)",
        "P(rammer reduced to 0)",
    ),
    MetricDecl::probability(
        "dealt={k}",
        "P({k} damage dealt)",
        "P(exactly k damage dealt)",
    ),
    MetricDecl::probability(
        "taken={k}",
        "P({k} damage taken)",
        "P(exactly k damage taken)",
    ),
];

/// The ram with its metric handles.
pub struct RamRule {
    ram: Ram,
    /// The rammer's dice against the target's armour.
    dealt: Pool,
    /// The target's return dice against the rammer's front armour.
    returned: Pool,
    list: MetricList,
    m: [Metric; 7],
    dealt_k: Vec<Metric>,
    taken: Vec<Metric>,
}

impl Ram {
    /// The ram with its metric handles.
    pub fn into_rule(self) -> RamRule {
        let mut list = MetricList::new();
        let [a, b, c, d, e, f, g, dealt, taken] = &RAM_METRICS;
        let m = [a, b, c, d, e, f, g].map(|x| list.add(x));
        let dealt = list.family(dealt, 0..=self.rammer_starting);
        let taken = list.family(taken, 0..=self.return_dice);
        RamRule {
            dealt: Pool::new(self.rammer_starting, self.target_armour),
            returned: Pool::new(self.return_dice, self.rammer_front_armour),
            ram: self,
            list,
            m,
            dealt_k: dealt,
            taken,
        }
    }
}

impl RamRule {
    /// The ram's numbers.
    pub(super) fn ram(&self) -> &Ram {
        &self.ram
    }
}

fn crippled(starting: u32, remaining_before: u32, damage: u32) -> bool {
    let lost = starting - remaining_before.saturating_sub(damage).min(starting);
    2 * lost >= starting
}

impl Mechanic for RamRule {
    type State = RamState;

    fn start(&self) -> RamState {
        RamState {
            passed: false,
            dealt: 0,
            taken: 0,
        }
    }

    /// The Leadership test, the rammer's dice, the target's return dice.
    fn steps(&self) -> usize {
        3
    }

    fn step<R: Roller>(&self, i: usize, dice: &mut R, s: &mut RamState) {
        match i {
            0 => s.passed = leadership_test(dice, self.ram.test_dice, self.ram.leadership),
            1 if s.passed => s.dealt = self.dealt.roll(dice),
            2 if s.passed => s.taken = self.returned.roll(dice),
            _ => {}
        }
    }

    /// Passed or not, points dealt, points taken.
    fn end_slot(&self, s: &RamState) -> Option<usize> {
        let dealt = self.ram.rammer_starting as usize + 1;
        let taken = self.ram.return_dice as usize + 1;
        let i = usize::from(s.passed) + 2 * (s.dealt as usize + dealt * s.taken as usize);
        (i < 2 * dealt * taken).then_some(i)
    }

    fn end_slots(&self) -> usize {
        2 * (self.ram.rammer_starting as usize + 1) * (self.ram.return_dice as usize + 1)
    }

    fn metrics(&self) -> &MetricList {
        &self.list
    }

    fn record(&self, s: &RamState, sink: &mut impl MetricSink) {
        let r = &self.ram;
        let [
            passed,
            dealt,
            taken,
            t_crippled,
            t_destroyed,
            r_crippled,
            r_destroyed,
        ] = self.m;
        sink.record(passed, u64::from(s.passed));
        sink.record(dealt, u64::from(s.dealt));
        sink.record(taken, u64::from(s.taken));
        sink.record(
            t_crippled,
            u64::from(crippled(r.target_starting, r.target_remaining, s.dealt)),
        );
        sink.record(t_destroyed, u64::from(s.dealt >= r.target_remaining));
        sink.record(
            r_crippled,
            u64::from(crippled(r.rammer_starting, r.rammer_remaining, s.taken)),
        );
        sink.record(r_destroyed, u64::from(s.taken >= r.rammer_remaining));
        sink.record(self.dealt_k[s.dealt as usize], 1);
        sink.record(self.taken[s.taken as usize], 1);
    }
}

/// Hit-and-run attacks against one ship.
#[derive(Clone, Debug)]
pub struct HitAndRun {
    /// Attacks made.
    pub attacks: u32,
    /// +1 fleets.
    pub bonus: u32,
    /// Results the target can suffer (the next highest replaces the others).
    pub applies: [bool; 9],
    /// The target is an escort: "an escort which has suffered critical
    /// damage is automatically destroyed".
    pub escort: bool,
}

/// Hit-and-run outcome: how many of each critical, extra damage.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct HitAndRunState {
    counts: [u8; 9],
    extra: u32,
}

/// Every metric of the hit-and-run scenario.
pub const HIT_AND_RUN_METRICS: [MetricDecl; 5] = [
    MetricDecl::probability(
        "p_any_critical",
        "P(any critical)",
        "P(at least one critical hit)",
    ),
    MetricDecl::mean(
        "mean_criticals",
        "mean critical hits",
        "expected critical hits",
    ),
    MetricDecl::mean(
        "mean_extra_damage",
        "mean extra damage",
        "expected extra damage from the criticals",
    ),
    MetricDecl::probability(
        "p_escort_destroyed",
        "P(escort destroyed)",
        "P(an escort target is destroyed)",
    ),
    MetricDecl::probability(
        "p_{k}",
        "P({k})",
        "P(at least one critical of this kind: p_lances_damaged, p_main_armament_damaged, p_ordnance_bays_hit, p_reactors_damaged, p_fire, p_orbit_lost, p_shields_collapse, p_hull_breach, p_bulkhead_collapse)",
    ),
];

/// Hit-and-run attacks with their metric handles.
pub struct HitAndRunRule {
    h: HitAndRun,
    list: MetricList,
    m: [Metric; 4],
    each: Vec<Metric>,
}

impl HitAndRun {
    /// The attacks with their metric handles.
    pub fn into_rule(self) -> HitAndRunRule {
        let mut list = MetricList::new();
        let [a, b, c, d, each] = &HIT_AND_RUN_METRICS;
        let m = [a, b, c, d].map(|x| list.add(x));
        let each = list.family(each, CRITICALS.iter().map(|c| c.name()));
        HitAndRunRule {
            h: self,
            list,
            m,
            each,
        }
    }
}

impl Mechanic for HitAndRunRule {
    type State = HitAndRunState;

    fn start(&self) -> HitAndRunState {
        HitAndRunState {
            counts: [0; 9],
            extra: 0,
        }
    }

    fn steps(&self) -> usize {
        self.h.attacks as usize
    }

    fn step<R: Roller>(&self, _i: usize, dice: &mut R, s: &mut HitAndRunState) {
        if let Some(c) = hit_and_run(dice, self.h.bonus) {
            let c = c.applicable(|x| self.h.applies[x.index()]);
            s.counts[c.index()] = s.counts[c.index()].saturating_add(1);
            s.extra += c.extra_damage(dice);
        }
    }

    fn metrics(&self) -> &MetricList {
        &self.list
    }

    fn record(&self, s: &HitAndRunState, sink: &mut impl MetricSink) {
        let total: u64 = s.counts.iter().map(|&c| u64::from(c)).sum();
        let [any, count, extra, escort] = self.m;
        sink.record(any, u64::from(total > 0));
        sink.record(count, total);
        sink.record(extra, u64::from(s.extra));
        sink.record(escort, u64::from(self.h.escort && total > 0));
        for (&h, &c) in self.each.iter().zip(&s.counts) {
            sink.record(h, u64::from(c > 0));
        }
    }
}

/// One Leadership test with a modified Leadership and optional
/// consequences: disengaging, asteroid fields, warp rifts.
#[derive(Clone, Debug)]
pub struct Hazard {
    /// Which hazard.
    pub kind: HazardKind,
    /// Dice of the test.
    pub test_dice: u32,
    /// Leadership after modifiers.
    pub leadership: i32,
    /// Shields that block asteroid damage.
    pub shields: u32,
}

/// The hazards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HazardKind {
    /// DISENGAGING FROM COMBAT: pass to leave the table.
    Disengage,
    /// ASTEROID FIELDS: "A ship or escort squadron that fails the Leadership
    /// test suffers D6 damage from asteroid impacts, but its shields will
    /// block damage as normal."
    AsteroidField,
    /// WARP RIFTS: "must pass a Leadership test on 3D6 ... If it fails, the
    /// ship disappears ... Roll a D6 for each ship lost in the warp after the
    /// game: on a 1 it is lost in the warp forever".
    WarpRift,
    /// Attack craft in an asteroid field: "destroyed on a D6 roll of 6".
    AttackCraft,
}

/// Hazard outcome.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct HazardState {
    passed: bool,
    damage: u32,
    lost_forever: bool,
}

/// The disengage test's metric.
pub const DISENGAGE_METRICS: [MetricDecl; 1] = [MetricDecl::probability(
    "p_disengage",
    "P(disengages)",
    "P(the disengage test passes)",
)];

/// The asteroid field's metrics (a ship's, or attack craft's).
pub const ASTEROID_METRICS: [MetricDecl; 4] = [
    MetricDecl::probability(
        "p_pass",
        "P(passes)",
        "P(the Leadership test passes); ships",
    ),
    MetricDecl::mean(
        "mean_damage",
        "mean damage",
        "expected damage after shields; ships",
    ),
    MetricDecl::probability(
        "damage={k}",
        "P({k} damage)",
        "P(exactly k damage), k = 0..6; ships",
    ),
    MetricDecl::probability(
        "p_destroyed",
        "P(squadron destroyed)",
        "P(the squadron is destroyed); attack craft",
    ),
];

/// The warp rift's metrics.
pub const WARP_RIFT_METRICS: [MetricDecl; 3] = [
    MetricDecl::probability(
        "p_navigates",
        "P(navigates the rift)",
        "P(passes the 3D6 test)",
    ),
    MetricDecl::probability(
        "p_lost_in_warp",
        "P(lost in the warp)",
        "P(lost for the battle)",
    ),
    MetricDecl::probability(
        "p_lost_forever",
        "P(lost forever)",
        "P(lost in the warp forever)",
    ),
];

/// A hazard with its metric handles (which metrics depends on the kind).
pub struct HazardRule {
    h: Hazard,
    list: MetricList,
    m: Vec<Metric>,
    damage: Vec<Metric>,
}

impl Hazard {
    /// The hazard with its metric handles.
    pub fn into_rule(self) -> HazardRule {
        let mut list = MetricList::new();
        let mut damage = Vec::new();
        let m = match self.kind {
            HazardKind::Disengage => vec![list.add(&DISENGAGE_METRICS[0])],
            HazardKind::AsteroidField => {
                let m = vec![
                    list.add(&ASTEROID_METRICS[0]),
                    list.add(&ASTEROID_METRICS[1]),
                ];
                damage = list.family(&ASTEROID_METRICS[2], 0..=6);
                m
            }
            HazardKind::WarpRift => WARP_RIFT_METRICS.iter().map(|d| list.add(d)).collect(),
            HazardKind::AttackCraft => vec![list.add(&ASTEROID_METRICS[3])],
        };
        HazardRule {
            h: self,
            list,
            m,
            damage,
        }
    }
}

impl Mechanic for HazardRule {
    type State = HazardState;

    fn start(&self) -> HazardState {
        HazardState {
            passed: false,
            damage: 0,
            lost_forever: false,
        }
    }

    fn steps(&self) -> usize {
        2
    }

    fn step<R: Roller>(&self, i: usize, dice: &mut R, s: &mut HazardState) {
        let h = &self.h;
        match (i, h.kind) {
            (0, HazardKind::AttackCraft) => s.passed = dice.d6() != 6,
            (0, _) => s.passed = leadership_test(dice, h.test_dice, h.leadership),
            (1, HazardKind::AsteroidField) if !s.passed => {
                s.damage = dice.d6().saturating_sub(h.shields)
            }
            (1, HazardKind::WarpRift) if !s.passed => s.lost_forever = dice.d6() == 1,
            _ => {}
        }
    }

    fn metrics(&self) -> &MetricList {
        &self.list
    }

    fn record(&self, s: &HazardState, sink: &mut impl MetricSink) {
        let m = &self.m;
        match self.h.kind {
            HazardKind::Disengage => sink.record(m[0], u64::from(s.passed)),
            HazardKind::AsteroidField => {
                sink.record(m[0], u64::from(s.passed));
                sink.record(m[1], u64::from(s.damage));
                sink.record(self.damage[s.damage as usize], 1);
            }
            HazardKind::WarpRift => {
                sink.record(m[0], u64::from(s.passed));
                sink.record(m[1], u64::from(!s.passed));
                sink.record(m[2], u64::from(s.lost_forever));
            }
            HazardKind::AttackCraft => sink.record(m[0], u64::from(!s.passed)),
        }
    }
}
