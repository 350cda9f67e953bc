//! Ramming, hit-and-run attacks, disengaging and celestial hazards, each a
//! [`Mechanic`] of fixed steps (exact and sampled from the same code).

use super::tables::{CRITICALS, hit_and_run, leadership_test};
use crate::dice::{MetricSink, Roller};
use crate::systems::MetricDef;
use crate::systems::step_model::Mechanic;

/// "Any dice that equal or beat the target's armour value score a point of
/// damage": one D6 against `armour`.
fn beats(dice: &mut impl Roller, armour: u32) -> bool {
    dice.d6() >= armour
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
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct RamState {
    passed: bool,
    dealt: u32,
    taken: u32,
}

impl Ram {
    /// The metrics, in recording order.
    pub fn metric_defs(&self) -> Vec<MetricDef> {
        let mut m = vec![
            MetricDef::probability("p_ram_succeeds", "P(the Leadership test to ram passes)"),
            MetricDef::mean("mean_damage_dealt", "expected damage to the target"),
            MetricDef::mean("mean_damage_taken", "expected damage to the rammer"),
            MetricDef::probability(
                "p_target_crippled",
                "P(target has lost at least half its starting damage)",
            ),
            MetricDef::probability("p_target_destroyed", "P(target reduced to 0)"),
            MetricDef::probability(
                "p_rammer_crippled",
                "P(rammer has lost at least half its starting damage)",
            ),
            MetricDef::probability("p_rammer_destroyed", "P(rammer reduced to 0)"),
        ];
        m.extend(
            (0..=self.rammer_starting)
                .map(|k| MetricDef::probability(format!("dealt={k}"), "P(exactly k damage dealt)")),
        );
        m.extend(
            (0..=self.return_dice)
                .map(|k| MetricDef::probability(format!("taken={k}"), "P(exactly k damage taken)")),
        );
        m
    }
}

fn crippled(starting: u32, remaining_before: u32, damage: u32) -> bool {
    let lost = starting - remaining_before.saturating_sub(damage).min(starting);
    2 * lost >= starting
}

impl Mechanic for Ram {
    type State = RamState;

    fn start(&self) -> RamState {
        RamState {
            passed: false,
            dealt: 0,
            taken: 0,
        }
    }

    fn steps(&self) -> usize {
        1 + self.rammer_starting as usize + self.return_dice as usize
    }

    fn step<R: Roller>(&self, i: usize, dice: &mut R, s: &mut RamState) {
        if i == 0 {
            s.passed = leadership_test(dice, self.test_dice, self.leadership);
        } else if s.passed && i <= self.rammer_starting as usize {
            s.dealt += u32::from(beats(dice, self.target_armour));
        } else if s.passed {
            s.taken += u32::from(beats(dice, self.rammer_front_armour));
        }
    }

    fn record(&self, s: &RamState, sink: &mut impl MetricSink) {
        sink.record(0, u64::from(s.passed));
        sink.record(1, u64::from(s.dealt));
        sink.record(2, u64::from(s.taken));
        sink.record(
            3,
            u64::from(crippled(
                self.target_starting,
                self.target_remaining,
                s.dealt,
            )),
        );
        sink.record(4, u64::from(s.dealt >= self.target_remaining));
        sink.record(
            5,
            u64::from(crippled(
                self.rammer_starting,
                self.rammer_remaining,
                s.taken,
            )),
        );
        sink.record(6, u64::from(s.taken >= self.rammer_remaining));
        sink.record(7 + s.dealt as usize, 1);
        sink.record(8 + self.rammer_starting as usize + s.taken as usize, 1);
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
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct HitAndRunState {
    counts: [u8; 9],
    extra: u32,
}

impl HitAndRun {
    /// The metrics, in recording order.
    pub fn metric_defs(&self) -> Vec<MetricDef> {
        let mut m = vec![
            MetricDef::probability("p_any_critical", "P(at least one critical hit)"),
            MetricDef::mean("mean_criticals", "expected critical hits"),
            MetricDef::mean(
                "mean_extra_damage",
                "expected extra damage from the criticals",
            ),
            MetricDef::probability("p_escort_destroyed", "P(an escort target is destroyed)"),
        ];
        for c in CRITICALS {
            m.push(MetricDef::probability(
                format!("p_{}", c.name()),
                "P(at least one such critical)",
            ));
        }
        m
    }
}

impl Mechanic for HitAndRun {
    type State = HitAndRunState;

    fn start(&self) -> HitAndRunState {
        HitAndRunState {
            counts: [0; 9],
            extra: 0,
        }
    }

    fn steps(&self) -> usize {
        self.attacks as usize
    }

    fn step<R: Roller>(&self, _i: usize, dice: &mut R, s: &mut HitAndRunState) {
        if let Some(c) = hit_and_run(dice, self.bonus) {
            let c = c.applicable(|x| self.applies[x.index()]);
            s.counts[c.index()] = s.counts[c.index()].saturating_add(1);
            s.extra += c.extra_damage(dice);
        }
    }

    fn record(&self, s: &HitAndRunState, sink: &mut impl MetricSink) {
        let total: u64 = s.counts.iter().map(|&c| u64::from(c)).sum();
        sink.record(0, u64::from(total > 0));
        sink.record(1, total);
        sink.record(2, u64::from(s.extra));
        sink.record(3, u64::from(self.escort && total > 0));
        for (i, &c) in s.counts.iter().enumerate() {
            sink.record(4 + i, u64::from(c > 0));
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
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct HazardState {
    passed: bool,
    damage: u32,
    lost_forever: bool,
}

impl Hazard {
    /// The metrics, in recording order.
    pub fn metric_defs(&self) -> Vec<MetricDef> {
        match self.kind {
            HazardKind::Disengage => vec![MetricDef::probability(
                "p_disengage",
                "P(the disengage test passes)",
            )],
            HazardKind::AsteroidField => {
                let mut m = vec![
                    MetricDef::probability("p_pass", "P(the Leadership test passes)"),
                    MetricDef::mean("mean_damage", "expected damage after shields"),
                ];
                m.extend(
                    (0..=6).map(|k| {
                        MetricDef::probability(format!("damage={k}"), "P(exactly k damage)")
                    }),
                );
                m
            }
            HazardKind::WarpRift => vec![
                MetricDef::probability("p_navigates", "P(passes the 3D6 test)"),
                MetricDef::probability("p_lost_in_warp", "P(lost for the battle)"),
                MetricDef::probability("p_lost_forever", "P(lost in the warp forever)"),
            ],
            HazardKind::AttackCraft => vec![MetricDef::probability(
                "p_destroyed",
                "P(the squadron is destroyed)",
            )],
        }
    }
}

impl Mechanic for Hazard {
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
        match (i, self.kind) {
            (0, HazardKind::AttackCraft) => s.passed = dice.d6() != 6,
            (0, _) => s.passed = leadership_test(dice, self.test_dice, self.leadership),
            (1, HazardKind::AsteroidField) if !s.passed => {
                s.damage = dice.d6().saturating_sub(self.shields)
            }
            (1, HazardKind::WarpRift) if !s.passed => s.lost_forever = dice.d6() == 1,
            _ => {}
        }
    }

    fn record(&self, s: &HazardState, sink: &mut impl MetricSink) {
        match self.kind {
            HazardKind::Disengage => sink.record(0, u64::from(s.passed)),
            HazardKind::AsteroidField => {
                sink.record(0, u64::from(s.passed));
                sink.record(1, u64::from(s.damage));
                sink.record(2 + s.damage as usize, 1);
            }
            HazardKind::WarpRift => {
                sink.record(0, u64::from(s.passed));
                sink.record(1, u64::from(!s.passed));
                sink.record(2, u64::from(s.lost_forever));
            }
            HazardKind::AttackCraft => sink.record(0, u64::from(!s.passed)),
        }
    }
}
