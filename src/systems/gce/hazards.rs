//! GCE grenades that miss, warriors on fire, and falls.

use super::tables::{hit_needed, hit_with, save_modifier_for_strength, wound_needed};
use super::warrior::{Condition, Status, WarriorStats};
use crate::dice::{MetricSink, Roller};
use crate::systems::MetricDef;
use crate::systems::repeat_model::{RepeatModel, Repeated};
use crate::systems::step_model::Mechanic;

/// "Maximum range of throw = (Warrior’s Strength x 2) + 2”" and "it can
/// never be more than 12”" (Grenades and Stikkbombz, Throw Table).
pub fn throw_range(strength: u8) -> u32 {
    (2 * u32::from(strength) + 2).min(12)
}

/// A thrown grenade: to hit, and where it goes when it misses (Scattering
/// Grenades, Unreliable Explosives).
#[derive(Clone, Debug)]
pub struct Grenade {
    /// Thrower's BS.
    pub bs: i32,
    /// Hit modifiers (cover, small target when aimed at the ground ...).
    pub hit_modifier: i32,
    /// Whether the target is within the throw range.
    pub in_range: bool,
    /// Ammo Roll value, if the grenade has one.
    pub ammo: Option<u32>,
}

/// Where a grenade ends up.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct GrenadeState {
    natural_six: bool,
    hit: bool,
    distance: u8,
    hit_symbol: bool,
    unreliable: u8,
    out_of_ammo: bool,
}

impl Grenade {
    /// The metrics, in recording order.
    pub fn metric_defs(&self) -> Vec<MetricDef> {
        let mut m = vec![
            MetricDef::probability("p_on_target", "P(the grenade hits the target)"),
            MetricDef::probability("p_scatters", "P(it misses and lands 1-5\" away)"),
            MetricDef::probability("p_dud", "P(a 6 for distance and an arrow: a dud)"),
            MetricDef::probability(
                "p_unreliable",
                "P(a 6 for distance and Hit: Unreliable Explosives)",
            ),
            MetricDef::probability(
                "p_explodes_on_thrower",
                "P(Unreliable Explosives 1: over the thrower)",
            ),
            MetricDef::probability("p_lands_2d6_away", "P(Unreliable Explosives 2-3)"),
            MetricDef::probability(
                "p_delayed",
                "P(Unreliable Explosives 4-5: lands 2D6\" awry, goes off later)",
            ),
            MetricDef::probability(
                "p_fumbled",
                "P(Unreliable Explosives 6: dropped, does not go off)",
            ),
            MetricDef::probability("p_out_of_ammo", "P(a failed Ammo Roll)"),
        ];
        m.extend((1..=5).map(|d| {
            MetricDef::probability(format!("scatter={d}"), "P(misses by exactly d inches)")
        }));
        m
    }
}

impl Mechanic for Grenade {
    type State = GrenadeState;

    fn start(&self) -> GrenadeState {
        GrenadeState {
            natural_six: false,
            hit: false,
            distance: 0,
            hit_symbol: false,
            unreliable: 0,
            out_of_ammo: false,
        }
    }

    fn steps(&self) -> usize {
        5
    }

    fn step<R: Roller>(&self, i: usize, dice: &mut R, s: &mut GrenadeState) {
        match i {
            0 => {
                let first = dice.d6();
                s.natural_six = first == 6;
                s.hit =
                    self.in_range && hit_with(first, hit_needed(self.bs, self.hit_modifier), dice);
            }
            // "Assuming your Warrior missed - roll a D6 ... how far off"
            1 if !s.hit => s.distance = dice.d6() as u8,
            // "A Scatter die has arrows on four sides and two "Hit" symbols"
            2 if !s.hit => s.hit_symbol = dice.d6() > 4,
            3 if !s.hit && s.distance == 6 && s.hit_symbol => s.unreliable = dice.d6() as u8,
            4 => {
                if let (Some(a), true) = (self.ammo, s.natural_six) {
                    s.out_of_ammo = dice.d6() < a;
                }
            }
            _ => {}
        }
    }

    fn record(&self, s: &GrenadeState, sink: &mut impl MetricSink) {
        let missed = !s.hit;
        sink.record(0, u64::from(s.hit));
        sink.record(1, u64::from(missed && s.distance < 6));
        sink.record(2, u64::from(missed && s.distance == 6 && !s.hit_symbol));
        sink.record(3, u64::from(missed && s.unreliable > 0));
        sink.record(4, u64::from(s.unreliable == 1));
        sink.record(5, u64::from((2..=3).contains(&s.unreliable)));
        sink.record(6, u64::from((4..=5).contains(&s.unreliable)));
        sink.record(7, u64::from(s.unreliable == 6));
        sink.record(8, u64::from(s.out_of_ammo));
        if missed && (1..=5).contains(&s.distance) {
            sink.record(8 + usize::from(s.distance), 1);
        }
    }
}

/// Warriors on Fire: "roll a D6 ... On a 6 the Fire goes out ... Anything
/// less than 6 causes them to take a Strength 4 Hit"; "If the Strength 4
/// Hit puts them Down (or Out of Action) then the Fire goes out"; "For each
/// friendly helping add +1 to the D6 roll. A total of 6 causes the Fire to
/// go out." Repeats every turn: an absorbing chain, solved exactly by
/// [`RepeatModel`].
#[derive(Clone, Debug)]
pub struct Fire {
    /// The burning warrior.
    pub victim: WarriorStats,
    /// Friends helping each turn.
    pub helpers: u32,
}

/// Turns counted one by one in the metrics.
pub const TURNS_SHOWN: usize = 6;

/// A burning warrior's state.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Burning {
    condition: Condition,
    out: bool,
}

impl Fire {
    fn turn(&self, dice: &mut impl Roller, s: &mut Burning) {
        if dice.d6() + self.helpers >= 6 {
            s.out = true;
            return;
        }
        // The S4 hit: Wound Chart, then the armour save with the Armour
        // Modifiers table's -1 for Strength 4 (reading: a hit with a
        // Strength takes that Strength's save modifier).
        let v = &self.victim;
        if let Some(needed) = wound_needed(4, v.toughness) {
            if dice.d6() >= u32::from(needed) {
                let saved = v.save.is_some_and(|sv| {
                    let need = i32::from(sv) - save_modifier_for_strength(4);
                    need <= 6 && dice.d6() as i32 >= need
                });
                if !saved {
                    s.condition.take_damage(dice, 1);
                }
            }
        }
        s.out |= s.condition.is_down_or_out();
    }

    fn initial(&self) -> Burning {
        Burning {
            condition: self.victim.fresh(),
            out: false,
        }
    }
}

impl Fire {
    /// The fire's own metrics (turn counts are added by [`RepeatModel`]).
    pub fn metric_defs(&self) -> Vec<MetricDef> {
        vec![
            MetricDef::probability("p_out_of_action", "P(Out of Action before the fire is out)"),
            MetricDef::probability("p_down", "P(Down, which puts the fire out)"),
            MetricDef::probability(
                "p_flesh_wound",
                "P(on its feet with a Flesh Wound when the fire goes out)",
            ),
            MetricDef::probability("p_unhurt", "P(no wound lost when the fire goes out)"),
        ]
    }

    /// The fire model: turns repeated until the fire is out.
    pub fn into_model(self) -> RepeatModel<Fire> {
        let metrics = self.metric_defs();
        RepeatModel::new(self, metrics, TURNS_SHOWN)
    }
}

impl Repeated for Fire {
    type State = Burning;

    const ROUND: &'static str = "turns";

    fn start(&self) -> Burning {
        self.initial()
    }

    fn over(&self, s: &Burning) -> bool {
        s.out
    }

    fn sub_steps(&self) -> usize {
        1
    }

    fn sub_step<R: Roller>(&self, _i: usize, dice: &mut R, s: &mut Burning) {
        self.turn(dice, s);
    }

    fn record(&self, s: &Burning, sink: &mut impl MetricSink) {
        let c = &s.condition;
        sink.record(0, u64::from(c.status == Status::OutOfAction));
        sink.record(1, u64::from(c.status == Status::Down));
        sink.record(2, u64::from(c.status == Status::FleshWound));
        sink.record(
            3,
            u64::from(c.status == Status::Standing && c.wounds_left == self.victim.wounds),
        );
    }
}

/// Fall Damage: "from height greater than 2” ... they take a Hit. The
/// Strength is equal to the number of inches they have fallen rounding up.
/// However a fall of 10” or more will take a Warrior Out of Action
/// instantly. A fall of under 6” inflicts 1 Damage, 6” or more inflicts D3
/// Damage. Warriors cannot take any sort of saving throw against fall
/// damage. Falling like this will Pin ... If the falling Warrior falls on top
/// of another Warrior then roll a D6. On a 4+ the other Warrior takes the
/// same damage as the falling Warrior!"
#[derive(Clone, Debug)]
pub struct Fall {
    /// Height in inches.
    pub height: f64,
    /// The faller.
    pub victim: WarriorStats,
    /// Whether it lands on another warrior.
    pub lands_on_warrior: bool,
}

/// A fall's outcome.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct FallState {
    condition: Condition,
    damage: u8,
    other_damage: u8,
    other_out: bool,
}

impl Fall {
    /// The metrics, in recording order.
    pub fn metric_defs(&self) -> Vec<MetricDef> {
        vec![
            MetricDef::probability(
                "p_wounded",
                "P(the faller loses a wound or goes Out of Action)",
            ),
            MetricDef::mean("mean_damage", "expected Damage to the faller"),
            MetricDef::probability("p_flesh_wound", "P(on its feet with a Flesh Wound)"),
            MetricDef::probability("p_down", "P(Down)"),
            MetricDef::probability("p_out_of_action", "P(Out of Action)"),
            MetricDef::probability("p_pinned", "P(Pinned by the fall)"),
            MetricDef::probability("p_other_hurt", "P(the warrior landed on takes damage)"),
            MetricDef::mean(
                "mean_other_damage",
                "expected Damage to the warrior landed on",
            ),
        ]
    }
}

impl Mechanic for Fall {
    type State = FallState;

    fn start(&self) -> FallState {
        FallState {
            condition: self.victim.fresh(),
            damage: 0,
            other_damage: 0,
            other_out: false,
        }
    }

    fn steps(&self) -> usize {
        2
    }

    fn step<R: Roller>(&self, i: usize, dice: &mut R, s: &mut FallState) {
        if self.height <= 2.0 {
            return;
        }
        let instantly_out = self.height >= 10.0;
        match i {
            0 if instantly_out => s.condition.status = Status::OutOfAction,
            0 => {
                let strength = self.height.ceil().min(10.0) as u8;
                if let Some(needed) = wound_needed(strength, self.victim.toughness) {
                    if dice.d6() >= u32::from(needed) {
                        let dealt = if self.height < 6.0 { 1 } else { dice.roll(3) };
                        s.damage = dealt as u8;
                        s.condition.take_damage(dice, dealt);
                    }
                }
            }
            // the other warrior takes the same damage on a 4+ (reading: after
            // a fall of 10" or more, the same fate: Out of Action)
            1 if self.lands_on_warrior && (s.damage > 0 || instantly_out) => {
                let same_fate = dice.d6() >= 4;
                s.other_damage = if same_fate { s.damage } else { 0 };
                s.other_out = same_fate && instantly_out;
            }
            _ => {}
        }
    }

    fn record(&self, s: &FallState, sink: &mut impl MetricSink) {
        let c = &s.condition;
        sink.record(
            0,
            u64::from(s.damage > 0 || c.status == Status::OutOfAction),
        );
        sink.record(1, u64::from(s.damage));
        sink.record(2, u64::from(c.status == Status::FleshWound));
        sink.record(3, u64::from(c.status == Status::Down));
        sink.record(4, u64::from(c.status == Status::OutOfAction));
        sink.record(
            5,
            u64::from(self.height > 2.0 && !self.victim.pin_immune && !c.is_down_or_out()),
        );
        sink.record(6, u64::from(s.other_damage > 0 || s.other_out));
        sink.record(7, u64::from(s.other_damage));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn throw_table_matches_the_seed_text() {
        // Throw Table: "| Thrower’s Strength | Range of Throw |" then rows
        let cells = crate::systems::seed_text::table_cells(
            "| Thrower’s Strength |",
            "Throwing Grenades Between",
        );
        let rows: Vec<(u8, u32)> = cells[2..]
            .chunks(2)
            .map(|c| {
                (
                    c[0].trim_end_matches('+').parse().unwrap(),
                    c[1].trim_end_matches('”').parse().unwrap(),
                )
            })
            .collect();
        assert_eq!(rows.len(), 5, "{cells:?}");
        for (s, r) in rows {
            assert_eq!(throw_range(s), r, "S{s}");
        }
        // "5+": every Strength above 5 throws 12" too
        assert_eq!(throw_range(10), 12);
    }
}
