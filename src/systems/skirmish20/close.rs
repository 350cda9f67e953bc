//! Close combat: up to 3 attackers (5 against a vehicle or walker) strike
//! one figure, which strikes back at the first of them; "everyone rolls
//! simultaneously for damage", each attack one D20 at or under the Close
//! Combat Weapons Factor Chart's value; then the aftermath test for the side
//! that suffered most casualties. A vehicle attacked takes its hits on the
//! Vehicle Damage Table; an APC or tank strikes no blows ("APC's and Tanks
//! can not do close assaults of any sort whatsoever"), a walker (a vehicle
//! too, said or not) does.

use super::chart::{Armour, CloseRow, Effect, parse_close_row};
use super::fire::{Figure, Toughness, roll_effect};
use super::shared_params::ToughnessParams;
use super::vehicle::{VehicleDamage, VehicleState, no_minor_gun};
use crate::dice::{Metric, MetricSink, Roller};
use crate::engine::step_model::Mechanic;
use crate::systems::Given;
use crate::systems::{MetricDecl, MetricList, Model, Opt, ParamError, ParamGroup, Params};
use crate::systems::{Refusal, Scenario};

/// The `close_combat` scenario: what it asks, its parameters and metrics, its
/// builder, test points, bad inputs and naive loop.
pub const CLOSE_COMBAT_SCENARIO: Scenario = Scenario {
    name: "close_combat",
    about: "attackers against one figure, blows simultaneous, and the aftermath test",
    seed_section: "CLOSE COMBAT WEAPONS FACTOR CHART; CLOSE COMBAT; EFFECT OF HIT CHART",
    params: CloseParams::decls,
    metrics: || METRICS.to_vec(),
    build,
    variants: &["no_minor_gun"],
    test_points: TEST_POINTS,
    refusals: &[Refusal {
        what: "a walker said not to be a vehicle",
        point: 0,
        set: &[("defender", "walker"), ("defender_vehicle", "false")],
        unset: &[],
        field: "defender_vehicle",
        words: &["a walker", "Vehicle Damage Table"],
    }],
    naive: crate::systems::skirmish20::naive::CLOSE_COMBAT,
};

const CHART: &str = "CLOSE COMBAT WEAPONS FACTOR CHART";
const RULES: &str = "CLOSE COMBAT";

/// "Martial Arts +4 for Close Combat throw".
pub const MARTIAL_ARTS: i32 = 4;

/// One side's fighter.
#[derive(Clone, Copy, Debug)]
pub struct Fighter {
    /// Its chart row.
    pub row: CloseRow,
    /// Attacks it makes.
    pub attacks: u32,
    /// A walker: a hit is "auto dead", "No roll for injury".
    pub squash: bool,
    /// The Martial Arts skill.
    pub martial_arts: bool,
    /// Its armour.
    pub armour: Armour,
    /// What a hit does to it.
    pub toughness: Toughness,
    /// Aftermath modifier: +1 "Tyrannids, Necrons or Human veterans", -1 Tau.
    pub aftermath: i32,
}

impl Fighter {
    /// Whether one attack on `target` hits and penetrates.
    fn strikes(&self, target: &Fighter, dice: &mut impl Roller) -> bool {
        let roll = dice.roll(20) as i32;
        match self.row[target.armour.column()] {
            None => false,
            Some(v) => roll <= i32::from(v) + if self.martial_arts { MARTIAL_ARTS } else { 0 },
        }
    }
}

/// The fight.
#[derive(Clone, Debug)]
pub struct CloseCombat {
    /// Attackers, all alike.
    pub attackers: u32,
    /// One attacker.
    pub attacker: Fighter,
    /// The figure attacked.
    pub defender: Fighter,
    /// The defender is a vehicle: vehicles ignore morale, and each hit
    /// that penetrates rolls on the Vehicle Damage Table.
    pub defender_vehicle: Option<VehicleDamage>,
    /// The defender strikes back (not an APC or tank).
    pub defender_strikes: bool,
}

/// The fight so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CloseState {
    hits_on_defender: u8,
    defender: Figure,
    vehicle: VehicleState,
    attacker: Figure,
    defender_runs: bool,
    attackers_run: bool,
}

/// Every metric.
pub const METRICS: [MetricDecl; 11] = [
    MetricDecl::probability(
        "p_defender_dead",
        "P(defender dead)",
        "P(the figure attacked is dead)",
    ),
    MetricDecl::probability(
        "p_defender_wounded",
        "P(defender wounded)",
        "P(the figure attacked is alive and wounded)",
    ),
    MetricDecl::probability(
        "p_attacker_dead",
        "P(attacker struck at dead)",
        "P(the attacker the defender strikes at is dead)",
    ),
    MetricDecl::probability(
        "p_attacker_wounded",
        "P(attacker struck at wounded)",
        "P(that attacker is alive and wounded)",
    ),
    MetricDecl::probability(
        "p_both_dead",
        "P(both dead)",
        "P(mortal blows both ways: \"It's a tough universe!\")",
    ),
    MetricDecl::mean(
        "mean_hits_on_defender",
        "mean hits on the defender",
        "expected attacks that hit and penetrate the defender",
    ),
    MetricDecl::probability(
        "p_defender_runs",
        "P(defender runs 2D6\")",
        "P(the defender's side tests and rolls 1-3)",
    ),
    MetricDecl::probability(
        "p_attackers_run",
        "P(attackers run 2D6\")",
        "P(the attackers' side tests and rolls 1-3)",
    ),
    MetricDecl::probability(
        "p_vehicle_wrecked",
        "P(vehicle burns or explodes)",
        "a vehicle attacked: P(burning or exploded after its hits on the Vehicle Damage Table)",
    ),
    MetricDecl::probability(
        "p_vehicle_immobilised",
        "P(vehicle immobilised)",
        "a vehicle attacked: P(immobilised or wrecked)",
    ),
    MetricDecl::probability(
        "p_vehicle_gun_out",
        "P(vehicle gun out)",
        "a vehicle attacked: P(some gun taken out or destroyed)",
    ),
];

/// The fight with its metric handles.
pub struct CloseRule {
    c: CloseCombat,
    list: MetricList,
    /// Attacker dead, attacker wounded, hits, attackers run.
    m: [Metric; 4],
    /// A figure attacked: dead, wounded, both dead, runs.
    figure: Option<[Metric; 4]>,
    /// A vehicle attacked: wrecked, immobilised, gun out.
    vehicle: Option<[Metric; 3]>,
}

impl CloseCombat {
    /// The fight with its metric handles.
    pub fn into_rule(self) -> CloseRule {
        let mut list = MetricList::new();
        // in the catalogue's order, the figure's metrics for a figure only
        let fig = self.defender_vehicle.is_none();
        let mut handles = Vec::new();
        for (i, d) in METRICS[..8].iter().enumerate() {
            let figure_only = matches!(i, 0 | 1 | 4 | 6);
            handles.push((!figure_only || fig).then(|| list.add(d)));
        }
        let h = |i: usize| handles[i].expect("added");
        let figure = fig.then(|| [0, 1, 4, 6].map(h));
        let m = [2, 3, 5, 7].map(h);
        let vehicle = (!fig).then(|| [8, 9, 10].map(|i| list.add(&METRICS[i])));
        CloseRule {
            c: self,
            list,
            m,
            figure,
            vehicle,
        }
    }
}

impl CloseState {
    /// The fight's start with the attacker struck at as it arrives (an
    /// assaulter wounded on the way in: `overwatch`).
    pub fn arriving(attacker: Figure) -> Self {
        CloseState {
            attacker,
            ..Default::default()
        }
    }

    /// The figure attacked.
    pub fn defender(&self) -> Figure {
        self.defender
    }

    /// The attacker struck at.
    pub fn attacker(&self) -> Figure {
        self.attacker
    }

    /// Whether the defender's side ran, and the attackers'.
    pub fn runs(&self) -> (bool, bool) {
        (self.defender_runs, self.attackers_run)
    }
}

fn casualty(f: &Figure, t: Toughness) -> bool {
    f.dead || f.wounded(t)
}

impl CloseRule {
    /// What a hit does to the figure attacked.
    pub fn defender_toughness(&self) -> Toughness {
        self.c.defender.toughness
    }

    /// Whether step `i` starts a group the fast sampler draws from its law
    /// on the fight's state ([`FacesModel::by_laws`]): an attacker's
    /// blows, the defender's blows, the aftermath test. "everyone rolls
    /// simultaneously for damage": the blows are steps of the fight, and
    /// the walk chains them as the exact evaluator does.
    ///
    /// [`FacesModel::by_laws`]: crate::engine::stages::FacesModel::by_laws
    pub fn group_starts(&self, i: usize) -> bool {
        let c = &self.c;
        let by_attackers = (c.attackers * c.attacker.attacks) as usize;
        if i < by_attackers {
            i.is_multiple_of(c.attacker.attacks.max(1) as usize)
        } else {
            i == by_attackers || i + 1 == self.steps()
        }
    }

    fn blow(striker: &Fighter, target: &Fighter, f: &mut Figure, dice: &mut impl Roller) -> bool {
        if !striker.strikes(target, dice) {
            return false;
        }
        let e = if striker.squash {
            Effect::Dead
        } else {
            roll_effect(dice, target.toughness)
        };
        f.take(e, target.toughness);
        true
    }

    /// "If at the end of the close combat the side that suffered most
    /// casualties has at least 50% dead or wounded then roll 1D6. on a roll
    /// of 1,2,3 they run away". Equal casualties: nobody tests.
    fn aftermath(&self, dice: &mut impl Roller, s: &mut CloseState) {
        let c = &self.c;
        // a vehicle's casualty is its wreck
        let d_cas = u32::from(if c.defender_vehicle.is_some() {
            s.vehicle.wrecked()
        } else {
            casualty(&s.defender, c.defender.toughness)
        });
        let a_cas = u32::from(casualty(&s.attacker, c.attacker.toughness));
        let (side, size, dead, fighter) = if d_cas > a_cas {
            (0, 1, s.defender.dead, c.defender)
        } else if a_cas > d_cas {
            (
                1,
                c.attackers,
                s.attacker.dead && c.attackers == 1,
                c.attacker,
            )
        } else {
            return;
        };
        let cas = d_cas.max(a_cas);
        if 2 * cas < size || dead || (side == 0 && c.defender_vehicle.is_some()) {
            return;
        }
        let runs = dice.d6() as i32 + fighter.aftermath <= 3;
        if side == 0 {
            s.defender_runs = runs;
        } else {
            s.attackers_run = runs;
        }
    }
}

impl Mechanic for CloseRule {
    type State = CloseState;

    fn start(&self) -> CloseState {
        CloseState::default()
    }

    fn steps(&self) -> usize {
        let back = if self.c.defender_strikes {
            self.c.defender.attacks
        } else {
            0
        };
        (self.c.attackers * self.c.attacker.attacks + back) as usize + 1
    }

    fn step<R: Roller>(&self, i: usize, dice: &mut R, s: &mut CloseState) {
        let c = &self.c;
        let by_attackers = (c.attackers * c.attacker.attacks) as usize;
        if i < by_attackers {
            if let Some(v) = &c.defender_vehicle {
                // "hits" on a vehicle roll on the Vehicle Damage Table
                if c.attacker.strikes(&c.defender, dice) {
                    s.hits_on_defender += 1;
                    v.damage(dice, &mut s.vehicle);
                    // no passengers roll in close combat
                    s.vehicle.settle();
                }
            } else if Self::blow(&c.attacker, &c.defender, &mut s.defender, dice) {
                s.hits_on_defender += 1;
            }
        } else if i + 1 < self.steps() {
            Self::blow(&c.defender, &c.attacker, &mut s.attacker, dice);
        } else {
            self.aftermath(dice, s);
        }
    }

    fn metrics(&self) -> &MetricList {
        &self.list
    }

    fn record(&self, s: &CloseState, sink: &mut impl MetricSink) {
        let [ad, aw, hits, aruns] = self.m;
        let c = &self.c;
        if let Some([dd, dw, both, druns]) = self.figure {
            sink.record(dd, u64::from(s.defender.dead));
            sink.record(dw, u64::from(s.defender.wounded(c.defender.toughness)));
            sink.record(both, u64::from(s.attacker.dead && s.defender.dead));
            sink.record(druns, u64::from(s.defender_runs));
        }
        if let Some([wrecked, immobilised, gun]) = self.vehicle {
            sink.record(wrecked, u64::from(s.vehicle.wrecked()));
            sink.record(immobilised, u64::from(s.vehicle.immobilised()));
            sink.record(gun, u64::from(s.vehicle.gun_out()));
        }
        sink.record(ad, u64::from(s.attacker.dead));
        sink.record(aw, u64::from(s.attacker.wounded(c.attacker.toughness)));
        sink.record(hits, u64::from(s.hits_on_defender));
        sink.record(aruns, u64::from(s.attackers_run));
    }
}

crate::param_struct! {
    /// The attackers' side: their weapon is always needed.
    pub struct AttackerParams {
        attacker: Opt<String> = preset("close_weapon", "attacker_")
            .about("each attacker's close combat weapon: a chart row by name, or custom")
            .seed(CHART),
        attacker_row: String = text("8 | 6 | 3 | 1")
            .about("each attacker's chart row: std | storm | power + APC | tank (X or n/a: no chance)")
            .seed(CHART)
            .required(),
        attacker_attacks: i64 = int(1, 4)
            .about("each attacker's attacks: 1; claws 2 (1 with guns too); scarab swarm 4; walkers 2")
            .seed(CHART)
            .required(),
        attacker_squash: bool = flag()
            .about("each attacker is a walker: a hit kills outright, no roll for injury")
            .seed(CHART),
        attacker_martial_arts: bool = flag()
            .about("each attacker has Martial Arts: +4")
            .seed("SPECIAL SKILLS"),
        attacker_armour: Armour = choice(Armour::WORDS)
            .required()
            .about("each attacker's armour (Tau count as std hand to hand)")
            .seed(CHART),
        attacker_aftermath: String = choice(AFTERMATH)
            .default("none")
            .about("each attacker's aftermath roll: +1 Tyranids, Necrons, veterans; -1 Tau")
            .seed(RULES),
        toughness: ToughnessParams = prefixed("attacker_"),
    }
}

impl AttackerParams {
    /// The attacker given.
    pub(super) fn fighter(&self) -> Result<Fighter, ParamError> {
        Ok(Fighter {
            row: parse_close_row(
                &self.attacker_row,
                crate::param_name!(AttackerParams.attacker_row),
            )?,
            attacks: self.attacker_attacks as u32,
            squash: self.attacker_squash,
            martial_arts: self.attacker_martial_arts,
            armour: self.attacker_armour,
            toughness: self.toughness.toughness(),
            aftermath: aftermath_step(&self.attacker_aftermath),
        })
    }
}

crate::param_struct! {
    /// The defender's side: its weapon is needed only when it strikes back
    /// (not an APC or tank).
    pub struct DefenderParams {
        defender: Opt<String> = preset("close_weapon", "defender_")
            .about("the defender's close combat weapon: a chart row by name, or custom")
            .seed(CHART),
        defender_row: Opt<String> = text("8 | 6 | 3 | 1")
            .about("the defender's chart row: std | storm | power + APC | tank (X or n/a: no chance) (needed unless the defender is an APC or tank)")
            .seed(CHART),
        defender_attacks: Opt<i64> = int(1, 4)
            .about("the defender's attacks: 1; claws 2 (1 with guns too); scarab swarm 4; walkers 2 (needed unless the defender is an APC or tank)")
            .seed(CHART),
        defender_squash: bool = flag()
            .about("the defender is a walker: a hit kills outright, no roll for injury")
            .seed(CHART),
        defender_martial_arts: bool = flag()
            .about("the defender has Martial Arts: +4")
            .seed("SPECIAL SKILLS"),
        defender_armour: Armour = choice(Armour::WORDS)
            .required()
            .about("the defender's armour (Tau count as std hand to hand)")
            .seed(CHART),
        defender_aftermath: String = choice(AFTERMATH)
            .default("none")
            .about("the defender's aftermath roll: +1 Tyranids, Necrons, veterans; -1 Tau")
            .seed(RULES),
        toughness: ToughnessParams = prefixed("defender_"),
    }
}

impl DefenderParams {
    /// The defender given, when it strikes back: its row and attacks are
    /// needed then.
    pub(super) fn fighter(&self) -> Result<Fighter, ParamError> {
        Ok(Fighter {
            row: parse_close_row(&self.defender_row.need()?, self.defender_row.name())?,
            attacks: self.defender_attacks.need()? as u32,
            squash: self.defender_squash,
            martial_arts: self.defender_martial_arts,
            armour: self.defender_armour,
            toughness: self.toughness.toughness(),
            aftermath: aftermath_step(&self.defender_aftermath),
        })
    }

    /// The weapon parameters given (the preset, the row, the attacks),
    /// first one first: an APC or tank has none.
    fn weapon_given(&self) -> Option<&str> {
        if self.defender.value.is_some() {
            Some(self.defender.name())
        } else if self.defender_row.value.is_some() {
            Some(self.defender_row.name())
        } else if self.defender_attacks.value.is_some() {
            Some(self.defender_attacks.name())
        } else {
            None
        }
    }
}

/// The aftermath roll's modifiers, as [`AFTERMATH`] names them.
const AFTERMATH: &[&str] = &["none", "plus_one", "minus_one"];

/// The aftermath modifier named (one of [`AFTERMATH`]).
fn aftermath_step(word: &str) -> i32 {
    match word {
        "plus_one" => 1,
        "minus_one" => -1,
        _ => 0,
    }
}

crate::param_struct! {
    /// Parameters of the scenario.
    pub struct CloseParams {
        attackers: i64 = int(1, 5)
            .default("1")
            .about("attackers on the one figure: at most 3, 5 against a walker or vehicle")
            .seed(RULES),
        defender_vehicle: Given<bool> = flag()
            .about(
                "the figure attacked is a vehicle (implied by tank armour and by a walker, defender = \"walker\"): up to 5 attackers, each hit rolls on the Vehicle Damage Table, no aftermath test; an APC or tank strikes no blows (\"can not do close assaults of any sort whatsoever\"), a walker does",
            )
            .seed("CLOSE COMBAT; HUMAN SPECIAL RULES; Vehicle Damage Table 1D10"),
        defender_minor_guns: Given<i64> = int(0, 4)
            .default("1")
            .about("a vehicle attacked: its guns besides the biggest (a Chimera: 1; a walker left without it: 0, the Sentinel's one autocannon)")
            .seed("Vehicle characteristics table")
            .needs("defender_vehicle", "true")
            .needs_unset("defender")
            .needs_unset("defender_row")
            .needs_unset("defender_attacks"),
        ..attacker: AttackerParams,
        ..defender: DefenderParams,
    }
}

/// Points the conformance suite checks.
pub const TEST_POINTS: &[&[(&str, &str)]] = &[
    &[
        ("attackers", "3"),
        ("attacker", "aliens_claws"),
        ("attacker_armour", "std"),
        ("attacker_aftermath", "plus_one"),
        ("defender", "power_weapon"),
        ("defender_armour", "power"),
        ("defender_kind", "hero"),
    ],
    &[
        ("attacker", "walker"),
        ("attacker_armour", "power"),
        ("defender", "hand_weapon"),
        ("defender_armour", "std"),
        ("defender_aftermath", "minus_one"),
    ],
    &[
        ("attackers", "5"),
        ("attacker", "anti_tank_grenades"),
        ("attacker_armour", "std"),
        ("defender_armour", "tank"),
    ],
    &[
        ("attackers", "2"),
        ("attacker", "power_weapon"),
        ("attacker_armour", "storm"),
        ("defender", "walker"),
        ("defender_armour", "power"),
    ],
];

/// Builds the model.
pub fn build(p: &Params, v: &Params) -> Result<Box<dyn Model>, ParamError> {
    let p = CloseParams::read(p)?;
    let attackers = p.attackers as u32;
    let d = &p.defender;
    // tank armour ("the strongest armour ... 13 or 14 armour in WH40K") is
    // a vehicle's, as in shooting; so is a walker (the Vehicle
    // characteristics table's "Sentinel Walker"; "Against a walker or
    // vehicle this number is upped to 5")
    let implied = if d.defender_armour == Armour::Tank {
        Some("defender_armour = \"tank\" is a vehicle's")
    } else if d.defender_squash {
        Some("a walker (defender_squash) is a vehicle of the Vehicle characteristics table")
    } else {
        None
    };
    if let Some(what) = implied
        && p.defender_vehicle.given_value() == Some(false)
    {
        return Err(ParamError::new(
            crate::param_name!(CloseParams.defender_vehicle),
            format!(
                "{what}: its hits roll on the Vehicle Damage Table; leave defender_vehicle out"
            ),
        ));
    }
    let defender_vehicle = implied.is_some() || p.defender_vehicle.value;
    let limit = if defender_vehicle { 5 } else { 3 };
    if attackers > limit {
        return Err(ParamError::new(
            crate::param_name!(CloseParams.attackers),
            format!(
                "\"You may never have more than 3 attackers against a single opponent\" (5 against a walker or vehicle): {attackers} is too many"
            ),
        ));
    }
    let attacker = p.attacker.fighter()?;
    if attacker.squash && defender_vehicle {
        return Err(ParamError::new(
            crate::param_name!(AttackerParams.attacker_squash),
            "walkers \"can not engage tanks and APC's in close combat\", and squash only \"any target smaller than them\": a walker attacks figures",
        ));
    }
    if attacker.armour == Armour::Tank {
        return Err(ParamError::new(
            crate::param_name!(AttackerParams.attacker_armour),
            "tank armour is a vehicle's, and \"APC's and Tanks can not do close assaults of any sort whatsoever\"",
        ));
    }
    // a walker strikes back; an APC or tank strikes no blows
    let strikes = !defender_vehicle || d.defender_squash;
    let defender = if strikes {
        d.fighter()?
    } else {
        if let Some(field) = d.weapon_given() {
            return Err(ParamError::new(
                field,
                "\"APC's and Tanks can not do close assaults of any sort whatsoever\": an APC or tank attacked strikes no blows, so leave its weapon out (a walker: defender = \"walker\")",
            ));
        }
        Fighter {
            row: [None; 4],
            attacks: 0,
            squash: false,
            martial_arts: false,
            armour: d.defender_armour,
            toughness: Toughness::default(),
            aftermath: 0,
        }
    };
    if !defender_vehicle && p.defender_minor_guns.given {
        return Err(ParamError::new(
            crate::param_name!(CloseParams.defender_minor_guns),
            "only with defender_vehicle = true: a figure has no guns",
        ));
    }
    let vehicle = if defender_vehicle {
        // a walker left without its guns is the seed's Sentinel ("Sentinel
        // Walker | 1 Autocannon"): no minor gun
        let minor_guns = if strikes && !p.defender_minor_guns.given {
            0
        } else {
            p.defender_minor_guns.value as u8
        };
        Some(VehicleDamage {
            hits: 0,
            minor_guns,
            passengers: 0,
            no_minor_gun: no_minor_gun(v)?,
        })
    } else {
        None
    };
    let c = CloseCombat {
        attackers,
        attacker,
        defender,
        defender_vehicle: vehicle,
        defender_strikes: strikes,
    };
    Ok(Box::new(
        crate::engine::stages::FacesModel::new(c.into_rule()).by_laws(CloseRule::group_starts),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::seed_text::{available, seed};
    use crate::systems::testing::exact as value;

    fn model(point: &[(&str, &str)]) -> Box<dyn Model> {
        crate::systems::testing::model(&super::super::RULES, "close_combat", point)
    }

    /// The numbers this file types by hand, found in the seed's words.
    #[test]
    fn the_close_combat_rules_quoted_are_the_seeds() {
        if !available(super::super::SEED) {
            return;
        }
        let text = seed(super::super::SEED);
        let at = text.find("Martial Arts\n").expect("the skills table");
        let bonus = text[at..].lines().nth(1).unwrap();
        assert_eq!(bonus, format!("+{MARTIAL_ARTS} for Close Combat throw"));
        for quote in [
            "everyone rolls simultaneously for damage",
            "has at least 50% dead or wounded then roll 1D6. on a roll of 1,2,3 they run away",
            "If the unit comprises Tyrannids, Necrons or Human veterans then add +1 to the roll",
            "Tau actually deduct 1",
            "on a roll of \"10\" or less. (and get 2 attacks) No roll for injury, auto dead",
            "Against a walker or vehicle this number is upped to 5",
        ] {
            assert!(text.contains(quote), "the seed says: {quote}");
        }
    }

    /// The fast sampler walks the fight a group of dice at a time, each
    /// drawn from its law on the fight's state (state laws): each
    /// attacker's blows, the defender's blows, the aftermath test; never
    /// the whole fight at once. At the first test point (three Gaunts of
    /// two claws on a Hero who strikes back) a trial is four or five words:
    /// three attackers, the Hero, and the aftermath where someone tests
    /// (equal casualties: no test, no word).
    #[test]
    fn the_fight_is_drawn_an_attacker_at_a_time() {
        use crate::dice::{BatchedRoller, Tally};
        use crate::engine::Sampler;
        let laws = Sampler::Custom(crate::engine::stages::STATE_LAWS);
        for point in TEST_POINTS {
            let m = model(point);
            // as a bundled spec of 200,000 trials plans it
            m.plan(200_000);
            assert_eq!(m.sampler(), laws, "{point:?}");
        }
        let m = model(TEST_POINTS[0]);
        let trials = 10_000;
        let mut roller = BatchedRoller::new(3, &[1]);
        m.run_chunk(&mut roller, trials, &mut Tally::new(m.metrics().len()));
        assert!(roller.words() > 4 * trials, "{}", roller.words());
        assert!(roller.words() < 5 * trials, "{}", roller.words());
    }

    /// "Sentinel or other walker destroy any target smaller than them on a
    /// roll of "10" or less. (and get 2 attacks) No roll for injury, auto
    /// dead": the walker's two attacks kill on 10 or less each.
    #[test]
    fn a_walker_kills_with_either_of_two_attacks_on_ten_or_less() {
        let m = model(TEST_POINTS[1]);
        let p_dead = 1.0 - (1.0 - 10.0 / 20.0) * (1.0 - 10.0 / 20.0);
        assert!((value(&*m, "p_defender_dead") - p_dead).abs() < 1e-12);
        // no injury roll: never merely wounded
        assert!(value(&*m, "p_defender_wounded").abs() < 1e-12);
        assert!((value(&*m, "mean_hits_on_defender") - 1.0).abs() < 1e-12);
    }
}
