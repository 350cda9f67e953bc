//! Attacks and damage: one turn's attacks (RoF, action points, cover,
//! ranged against DL 4 or melee against Parry, area attacks with dodging
//! and scatter), each hit through the target's armour; and a fight over
//! turns until the target is incapacitated, an absorbing chain over Health,
//! non-lethal wounds, Durability and carried AP.

use super::rules::{
    Cover, DEAD_AT, Defence, Intent, NORMAL_DIFFICULTY, ROF_PENALTY, RollParams, SkillRoll, Target,
    affordable_attacks, ap_at_turn_start, attacks_cost,
};
use crate::dice::{BatchedRoller, Metric, MetricSink, Roller, Tally};
use crate::engine::repeat_model::{RepeatModel, Repeated};
use crate::engine::step_model::{Mechanic, StepModel};
use crate::systems::{
    MetricDecl, MetricDef, MetricList, Model, Opt, ParamError, ParamGroup, Params, Sampler,
};
use crate::systems::{Refusal, Scenario, Variant};

/// The `attack` scenario: what it asks, its parameters and metrics, its
/// builder, test points, bad inputs and naive loop.
pub const ATTACK_SCENARIO: Scenario = Scenario {
    name: "attack",
    about: "one turn's attacks (RoF, AP, cover, ranged / melee / area) and their damage through armour",
    seed_section: "Action Points; Attacks; RoF; Ranged Attacks; Melee Attacks; Area of Effect; Dodging; Cover; Damage; Damage Reduction; Non-lethal damage; Wounds; Lethal",
    params: TurnParams::decls,
    metrics: || TURN_METRICS.to_vec(),
    build: build_turn,
    variants: &["dodge_damage"],
    test_points: &[
        &[
            ("skill", "3"),
            ("damage", "5"),
            ("target_health", "10"),
            ("armour_dr", "3"),
            ("armour_durability", "10"),
            ("rof", "3"),
            ("attacks", "3"),
        ],
        &[
            ("skill", "2"),
            ("kind", "melee"),
            ("target_parry", "9"),
            ("damage", "3"),
            ("target_health", "4"),
            ("armour_dr", "2"),
            ("armour_durability", "3"),
            ("cover", "cover"),
        ],
        &[
            ("skill", "2"),
            ("kind", "area"),
            ("range_penalty", "1"),
            ("damage", "14"),
            ("target_health", "6"),
            ("target_athletics", "2"),
            ("rof", "2"),
            ("attacks", "2"),
            ("intent", "knock_out"),
        ],
        &[
            ("skill", "3"),
            ("damage", "2"),
            ("target_health", "3"),
            ("armour_dr", "4"),
            ("armour_durability", "20"),
            ("rof", "4"),
            ("attacks", "4"),
            ("armour_piercing", "false"),
        ],
    ],
    refusals: &[
        Refusal {
            what: "more attacks than the RoF",
            point: 0,
            set: &[("attacks", "4")],
            unset: &[],
            field: "attacks",
            words: &["RoF"],
        },
        Refusal {
            what: "Parry on a ranged attack",
            point: 0,
            set: &[("target_parry", "7")],
            unset: &[],
            field: "target_parry",
            words: &["DL 4"],
        },
    ],
    naive: crate::systems::crisis::naive::ATTACK,
};

/// The `fight` scenario: what it asks, its parameters and metrics, its
/// builder, test points, bad inputs and naive loop.
pub const FIGHT_SCENARIO: Scenario = Scenario {
    name: "fight",
    about: "turns of attacks until the target is incapacitated: an absorbing chain over Health, non-lethal wounds, Durability and AP",
    seed_section: "Action Points; RoF; Attacks; Damage; Damage Reduction; Non-lethal damage; Wounds; Lethal",
    params: FightParams::decls,
    metrics: fight_metrics,
    build: build_fight,
    variants: &["dodge_damage"],
    test_points: &[
        &[
            ("skill", "2"),
            ("damage", "4"),
            ("target_health", "8"),
            ("armour_dr", "2"),
            ("armour_durability", "6"),
            ("rof", "3"),
            ("attack_ap", "2"),
            ("policy", "all"),
        ],
        &[
            ("skill", "1"),
            ("kind", "melee"),
            ("target_parry", "8"),
            ("damage", "3"),
            ("target_health", "5"),
            ("armour_dr", "3"),
            ("armour_durability", "4"),
        ],
        &[
            ("skill", "3"),
            ("damage", "9"),
            ("target_health", "6"),
            ("armour_dr", "1"),
            ("armour_durability", "2"),
            ("rof", "3"),
            ("attack_ap", "2"),
            ("policy", "best"),
            ("intent", "knock_out"),
        ],
        &[
            ("skill", "2"),
            ("kind", "area"),
            ("damage", "3"),
            ("target_health", "4"),
            ("target_athletics", "3"),
        ],
        // a CAP 1 pistol whose reload costs 4 AP: shots on three turns in four
        &[
            ("skill", "0"),
            ("damage", "4"),
            ("target_health", "4"),
            ("cap", "1"),
            ("reload_ap", "4"),
        ],
        // CAP 4 at RoF 3, reloads of 2 AP, the best number of attacks
        &[
            ("skill", "2"),
            ("damage", "4"),
            ("target_health", "8"),
            ("armour_dr", "2"),
            ("armour_durability", "6"),
            ("rof", "3"),
            ("cap", "4"),
            ("reload_ap", "2"),
            ("loaded", "1"),
            ("policy", "best"),
        ],
    ],
    refusals: &[
        Refusal {
            what: "more rounds loaded than the CAP holds",
            point: 5,
            set: &[("loaded", "5")],
            unset: &[],
            field: "loaded",
            words: &["CAP is 4"],
        },
        Refusal {
            what: "reloads solved over too many points",
            point: 5,
            set: &[
                ("target_health", "100"),
                ("armour_durability", "200"),
                ("cap", "100"),
            ],
            unset: &[],
            field: "cap",
            words: &["solved exactly"],
        },
        Refusal {
            what: "a fight against total cover never ends",
            point: 0,
            set: &[("cover", "total")],
            unset: &[],
            field: "cover",
            words: &["never ends"],
        },
        Refusal {
            what: "a melee attack without the target's Parry",
            point: 0,
            set: &[("kind", "melee")],
            unset: &[],
            field: "target_parry",
            words: &["Parry"],
        },
        Refusal {
            what: "a knock-out intent misspelt",
            point: 0,
            set: &[("intent", "knockout")],
            unset: &[],
            field: "intent",
            words: &["did you mean 'knock_out'"],
        },
        Refusal {
            what: "a roll too large to evaluate",
            point: 0,
            set: &[("roll", "1000d10000")],
            unset: &[],
            field: "roll",
            words: &["cannot be evaluated"],
        },
    ],
    naive: crate::systems::crisis::naive::FIGHT,
};

/// The fight's metrics: its own, then the turns it takes.
fn fight_metrics() -> Vec<MetricDecl> {
    let mut m = FIGHT_METRICS.to_vec();
    m.extend(crate::engine::repeat_model::round_metrics("turns"));
    m
}

const ATTACKS: &str = "Attacks; Making an Attack; Ranged Attacks; Melee Attacks";
const ROF: &str = "RoF; Action Points";
const AREA: &str = "Area of Effect; Dodging";
const COVER: &str = "Cover; Cover and firearms";
const DAMAGE: &str = "Damage; Dealing Damage; Damage Reduction; Non-lethal damage; Wounds";

/// Turns shown one by one in a fight's distribution.
pub(super) const TURNS_SHOWN: usize = 10;

/// What kind of attack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Against DL 4, with RNG penalties.
    Ranged,
    /// Against the target's Parry.
    Melee,
    /// A ranged attack against DL 4 without extra damage from Extras; a
    /// miss scatters; the target may dodge.
    Area,
}

crate::variant_enum! {
    /// What a dodged area attack deals (the variant `dodge_damage`).
    pub enum DodgeDamage = "dodge_damage" {
        /// Damage: "If your damage would be reduced to 0 or lower because of
        /// defenses, such as damage reduction or dodging, you still deal 1
        /// non-lethal damage to the target. Status Effects are not applied in
        /// this case."
        OneNonLethal = "one_nonlethal",
        /// Dodging: "If you win the contest you can move your character by 1
        /// tile into any direction away from the AoE effect before you receive
        /// any damage or effect from it": nothing.
        Nothing = "none",
    }
    about: "A dodged area attack: still deals 1 non-lethal damage ('one_nonlethal', Damage: \"reduced to 0 or lower because of defenses, such as damage reduction or dodging, you still deal 1 non-lethal damage\") or nothing ('none', Dodging: \"move ... away from the AoE effect before you receive any damage or effect from it\")",
}

/// The attacker, the weapon and the target's defences, as one turn's
/// attacks need them.
#[derive(Clone, Debug)]
pub struct Attack {
    roll: SkillRoll,
    /// Skill + HIT + circumstance + RNG penalty + cover.
    bonus: i64,
    /// DL 4, or the target's Parry.
    difficulty: i64,
    /// `None` behind total cover.
    pub(super) hittable: bool,
    pub(super) kind: Kind,
    /// Weapon damage + damage circumstance.
    pub(super) damage: i32,
    pub(super) armour_piercing: bool,
    pub(super) defence: Defence,
    /// The target's Athletics + modifiers when it dodges area attacks.
    pub(super) dodge: Option<i64>,
    /// What a dodged attack still deals.
    dodged_deals: DodgeDamage,
    pub(super) rof: u8,
    pub(super) attack_ap: u8,
    pub(super) durability: i32,
    /// Kill, or knock out instead of killing.
    pub(super) intent: Intent,
}

/// How one attack went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shot {
    /// Missed; for an area attack, whether the d8 sent it straight back.
    Miss {
        /// "A 1 is being straight back at you".
        back: bool,
    },
    /// Hit, but the target dodged out of the area.
    Dodged,
    /// Hit and dealt damage.
    Hit,
}

impl Attack {
    /// The `index`-th attack of a turn (0 the first): "a cumulative -2
    /// penalty on HIT, per extra Attack". Damage is "Extras + DMG ±
    /// Circumstance"; "An Area of Effect weapon does not receive extra
    /// damage from Extras". A dodge is a contest against the attack roll
    /// ("the attacker his respective weapon's Skill"), tried "once per
    /// round" (the turn's first attack); the dodger must beat the attack's
    /// total, and a dodged attack still deals 1 non-lethal wound ("reduced
    /// to 0 or lower because of defenses, such as damage reduction or
    /// dodging"), or nothing under the variant `dodge_damage = "none"`.
    pub fn resolve<R: Roller>(&self, index: u8, dice: &mut R, target: &mut Target) -> Shot {
        self.resolve_dodging(index, index == 0, dice, target)
    }

    /// [`Attack::resolve`], with the target trying its dodge on this attack
    /// when `dodges` (and it can dodge this attack at all): "Once per round
    /// you can try to dodge an incoming Area of Effect Attack". One
    /// attacker's turn tries it on its first attack; a volley
    /// (`super::volley`) on the round's first area attack, whoever makes it.
    pub fn resolve_dodging<R: Roller>(
        &self,
        index: u8,
        dodges: bool,
        dice: &mut R,
        target: &mut Target,
    ) -> Shot {
        let total = self.roll.dice(dice) + self.bonus + ROF_PENALTY * i64::from(index);
        let dodge = match self.dodge {
            Some(athletics) if dodges => Some(self.roll.dice(dice) + athletics),
            _ => None,
        };
        let extras = if self.hittable {
            self.roll.extras(total, self.difficulty)
        } else {
            None
        };
        let Some(extras) = extras else {
            let back = self.kind == Kind::Area && dice.roll(8) == 1;
            return Shot::Miss { back };
        };
        if dodge.is_some_and(|d| d > total) {
            if self.dodged_deals == DodgeDamage::OneNonLethal {
                // the armour blocks nothing of a hit dodged to 0
                target.nonlethal = (target.nonlethal + 1).min(self.defence.health + 1);
            }
            return Shot::Dodged;
        }
        let bonus = if self.kind == Kind::Area {
            0
        } else {
            extras as i32
        };
        target.take_with_intent(
            self.damage + bonus,
            self.defence,
            self.armour_piercing,
            self.intent,
        );
        Shot::Hit
    }

    /// The target before the first attack.
    pub fn fresh_target(&self) -> Target {
        Target::fresh(self.defence.health, self.durability)
    }

    /// P(the `index`-th attack of a turn deals damage: hits, and is not
    /// dodged unless a dodged hit still deals its 1 non-lethal wound).
    pub fn p_lands(&self, index: u8) -> f64 {
        if !self.hittable {
            return 0.0;
        }
        let law = self.roll.law();
        let bonus = self.bonus + ROF_PENALTY * i64::from(index);
        law.iter()
            .filter(|(v, _)| v + bonus >= self.difficulty)
            .map(|(v, p)| {
                let total = v + bonus;
                let not_dodged: f64 = match self.dodge {
                    Some(_) if self.dodged_deals == DodgeDamage::OneNonLethal => 1.0,
                    Some(a) if index == 0 => law
                        .iter()
                        .filter(|(d, _)| d + a <= total)
                        .map(|(_, q)| q)
                        .sum(),
                    _ => 1.0,
                };
                p * not_dodged
            })
            .sum()
    }
}

crate::param_struct! {
    /// The attacker, the weapon and the target: parameters of the attack
    /// and fight scenarios.
    pub struct AttackParams {
        ..roll: RollParams,
        skill: i64 = int(-10, 30)
            .required()
            .about("the attacker's weapon skill (Light Weapon, Melee, Athletics for thrown)")
            .seed(ATTACKS),
        hit: i64 = int(-20, 20)
            .default("0")
            .about("the weapon's HIT")
            .seed(ATTACKS),
        circumstance: i64 = int(-20, 20)
            .default("0")
            .about("circumstance modifier on the attack roll")
            .seed(ATTACKS),
        kind: String = choice(&["ranged", "melee", "area"])
            .default("ranged")
            .about("ranged (DL 4, RNG penalty), melee (DL the target's Parry) or area (DL 4, no extra damage from Extras, a miss scatters)")
            .seed("Ranged Attacks; Melee Attacks; Area of Effect"),
        range_penalty: i64 = int(0, 20)
            .default("0")
            .about("the RNG penalty of a ranged or area attack")
            .seed("Ranged Attacks"),
        target_parry: Opt<i64> = int(0, 40)
            .about("the target's Parry: the DL of a melee attack")
            .seed("Melee Attacks")
            .needs("kind", "melee"),
        cover: String = choice(Cover::WORDS)
            .default("none")
            .about("the target's cover: cover -2, heavy -4, total unhittable")
            .seed(COVER),
        penetrable: bool = flag()
            .about("the cover is penetrable by the projectiles: one step less")
            .seed(COVER),
        target_athletics: Opt<i64> = int(-10, 30)
            .about("area attacks only: the target dodges the turn's first attack with Athletics (a contest)")
            .seed(AREA)
            .needs("kind", "area"),
        rof: i64 = int(1, 6)
            .default("1")
            .about("the weapon's RoF: attacks a turn at most")
            .seed(ROF),
        attack_ap: i64 = int(1, 4)
            .default("1")
            .about("AP of the first attack of a turn (the seed gives none: 'An action always costs at least 1 AP'); each extra RoF attack costs 1")
            .seed(ROF),
        damage: i64 = int(0, 100)
            .required()
            .about("the weapon's DMG")
            .seed(DAMAGE),
        damage_circumstance: i64 = int(-20, 20)
            .default("0")
            .about("circumstance modifier on damage")
            .seed(DAMAGE),
        armour_piercing: bool = flag()
            .about("the weapon or ammunition ignores the armour's DR")
            .seed("Damage Reduction"),
        target_health: i64 = int(1, 100)
            .required()
            .about("the target's Health")
            .seed("Wounds"),
        armour_dr: i64 = int(0, 30)
            .default("0")
            .about("the target's armour DR")
            .seed("Damage Reduction"),
        armour_durability: i64 = int(0, 200)
            .default("0")
            .about("the armour's Durability: blocked damage comes off it; at 0 it stops protecting")
            .seed("Damage Reduction"),
        intent: String = choice(Intent::WORDS)
            .default("kill")
            .about("kill, or knock_out: a hit that would kill is dealt as non-lethal force, knocking the target out instead")
            .seed("Lethal"),
    }
}

impl AttackParams {
    /// The attack these parameters describe; `variants` are read only
    /// where they matter (a dodge), so only those runs name them.
    pub(super) fn attack(&self, variants: &Params) -> Result<Attack, ParamError> {
        let p = self;
        let roll = p.roll.skill_roll()?;
        let kind = match p.kind.as_str() {
            "melee" => Kind::Melee,
            "area" => Kind::Area,
            _ => Kind::Ranged,
        };
        let parry = p.target_parry.value;
        let difficulty = match kind {
            Kind::Melee => parry.ok_or_else(|| {
                ParamError::missing(
                    p.target_parry.name(),
                    "missing: set target_parry (a melee attack's DL is the target's Parry)",
                )
            })?,
            _ => {
                if parry.is_some() {
                    return Err(ParamError::new(
                        p.target_parry.name(),
                        "only a melee attack is against Parry; a ranged or area attack is against DL 4",
                    ));
                }
                NORMAL_DIFFICULTY
            }
        };
        let range_penalty = p.range_penalty;
        if kind == Kind::Melee && range_penalty != 0 {
            return Err(ParamError::new(
                crate::param_name!(AttackParams.range_penalty),
                "a melee attack has no RNG penalty",
            ));
        }
        let athletics = p.target_athletics.value;
        if athletics.is_some() && kind != Kind::Area {
            return Err(ParamError::new(
                p.target_athletics.name(),
                "'Only Area of Effect Attacks can be dodged': set kind = \"area\"",
            ));
        }
        let (hittable, cover_penalty) = Cover::parse(&p.cover).attacked(p.penetrable);
        let bonus = p.skill + p.hit + p.circumstance - range_penalty + cover_penalty;
        let health = p.target_health as i32;
        Ok(Attack {
            roll,
            bonus,
            difficulty,
            hittable,
            kind,
            damage: (p.damage + p.damage_circumstance) as i32,
            armour_piercing: p.armour_piercing,
            defence: Defence {
                health,
                dr: p.armour_dr as i32,
            },
            dodge: athletics,
            // read only where a dodge is tried, so only those runs name it
            dodged_deals: match athletics {
                Some(_) => DodgeDamage::read(variants)?,
                None => DodgeDamage::OneNonLethal,
            },
            rof: p.rof as u8,
            attack_ap: p.attack_ap as u8,
            durability: p.armour_durability as i32,
            intent: Intent::parse(&p.intent),
        })
    }
}

// ------------------------------------------------------------ one turn

crate::param_struct! {
    /// Parameters of the attack scenario.
    pub struct TurnParams {
        ..attack: AttackParams,
        attacks: i64 = int(1, 6)
            .default("1")
            .about("attacks this turn: the first, then extra RoF attacks at 1 AP and -2 each")
            .seed(ROF),
        ap: i64 = int(0, 6)
            .default("4")
            .about("AP the attacker has this turn (4 at the start of a crisis, at most 6)")
            .seed("Action Points"),
    }
}

/// Every metric of the attack scenario.
pub const TURN_METRICS: [MetricDecl; 12] = [
    MetricDecl::probability("p_hit", "P(at least one hit)", "P(some attack hits)"),
    MetricDecl::mean(
        "mean_hits",
        "mean hits",
        "expected hits this turn (dodged ones not counted)",
    ),
    MetricDecl::probability("hits={k}", "P({k} hits)", "P(exactly k attacks hit)"),
    MetricDecl::mean(
        "mean_health_lost",
        "mean Health lost",
        "expected lethal wounds taken (down to Health -10)",
    ),
    MetricDecl::mean(
        "mean_nonlethal",
        "mean non-lethal wounds",
        "expected non-lethal wounds taken (1 per hit reduced to 0 or less, a dodged one included)",
    ),
    MetricDecl::mean(
        "mean_durability_left",
        "mean armour Durability left",
        "expected Durability of the armour after the turn",
    ),
    MetricDecl::probability(
        "p_incapacitated",
        "P(incapacitated)",
        "P(dying, dead, knocked out by non-lethal wounds or hit by more than 12 wounds at once)",
    ),
    MetricDecl::probability("p_dying", "P(dying)", "P(Health 0 or less, above -10)"),
    MetricDecl::probability("p_dead", "P(dead)", "P(Health -10)"),
    MetricDecl::mean(
        "mean_scatter_back",
        "mean misses scattering back",
        "area attacks: expected misses whose d8 shows 1, 'straight back at you'",
    ),
    MetricDecl::probability(
        "p_dodged",
        "P(dodges the first attack)",
        "area attacks with a dodge: P(the first attack hits and the target wins the contest)",
    ),
    MetricDecl::probability(
        "p_spared",
        "P(knocked out instead of killed)",
        "knock-out intent: P(a hit would have killed and was dealt as non-lethal force)",
    ),
];

struct Turn {
    attack: Attack,
    attacks: u8,
    list: MetricList,
    m: [Metric; 8],
    hits: Vec<Metric>,
    scatter: Option<Metric>,
    dodged: Option<Metric>,
    spared: Option<Metric>,
}

/// (target, hits, misses sent back, first attack dodged)
type TurnState = (Target, u8, u8, bool);

impl Mechanic for Turn {
    type State = TurnState;

    fn start(&self) -> TurnState {
        (self.attack.fresh_target(), 0, 0, false)
    }

    fn steps(&self) -> usize {
        usize::from(self.attacks)
    }

    fn step<R: Roller>(&self, i: usize, dice: &mut R, s: &mut TurnState) {
        // "You have to assign all Attacks to your targets first before you
        // roll for them": every attack is rolled, whatever the earlier did
        match self.attack.resolve(i as u8, dice, &mut s.0) {
            Shot::Hit => s.1 += 1,
            Shot::Miss { back } => s.2 += u8::from(back),
            Shot::Dodged => s.3 = true,
        }
    }

    fn metrics(&self) -> &MetricList {
        &self.list
    }

    fn record(&self, (t, hits, back, dodged): &TurnState, sink: &mut impl MetricSink) {
        let [
            p_hit,
            mean_hits,
            lost,
            nonlethal,
            durability,
            incap,
            dying,
            dead,
        ] = self.m;
        let h = self.attack.defence.health;
        sink.record(p_hit, u64::from(*hits > 0));
        sink.record(mean_hits, u64::from(*hits));
        sink.record(self.hits[usize::from(*hits)], 1);
        sink.record(lost, (h - t.health) as u64);
        sink.record(nonlethal, t.nonlethal as u64);
        sink.record(durability, t.durability as u64);
        sink.record(incap, u64::from(t.incapacitated()));
        sink.record(dying, u64::from(t.dying()));
        sink.record(dead, u64::from(t.dead()));
        if let Some(m) = self.scatter {
            sink.record(m, u64::from(*back));
        }
        if let Some(m) = self.dodged {
            sink.record(m, u64::from(*dodged));
        }
        if let Some(m) = self.spared {
            sink.record(m, u64::from(t.spared));
        }
    }
}

/// Builds the attack scenario.
pub fn build_turn(p: &Params, variants: &Params) -> Result<Box<dyn Model>, ParamError> {
    let (attack, attacks) = turn_of(&TurnParams::read(p)?, variants)?;
    let mut list = MetricList::new();
    let d = &TURN_METRICS;
    let p_hit = list.add(&d[0]);
    let mean_hits = list.add(&d[1]);
    let hits = list.family(&d[2], 0..=attacks);
    let m = [
        p_hit,
        mean_hits,
        list.add(&d[3]),
        list.add(&d[4]),
        list.add(&d[5]),
        list.add(&d[6]),
        list.add(&d[7]),
        list.add(&d[8]),
    ];
    let scatter = (attack.kind == Kind::Area).then(|| list.add(&d[9]));
    let dodged = attack.dodge.map(|_| list.add(&d[10]));
    let spared = (attack.intent == Intent::KnockOut).then(|| list.add(&d[11]));
    Ok(Box::new(StepModel::new(Turn {
        attack,
        attacks,
        list,
        m,
        hits,
        scatter,
        dodged,
        spared,
    })))
}

/// One turn's attack and how many attacks it makes, checked against the
/// RoF and the AP: the `attack` scenario's, and each attacker's of a
/// volley.
pub(super) fn turn_of(p: &TurnParams, variants: &Params) -> Result<(Attack, u8), ParamError> {
    let attack = p.attack.attack(variants)?;
    let attacks = p.attacks as u8;
    if attacks > attack.rof {
        return Err(ParamError::new(
            crate::param_name!(TurnParams.attacks),
            format!(
                "{attacks} attacks need RoF {attacks} or more; the weapon has RoF {}",
                attack.rof
            ),
        ));
    }
    let ap = p.ap as u8;
    let cost = attacks_cost(attacks, attack.attack_ap);
    if cost > ap {
        return Err(ParamError::new(
            crate::param_name!(TurnParams.attacks),
            format!(
                "{attacks} attacks cost {cost} AP ({} for the first, 1 per extra) but the attacker has {ap}: 'Actions that require more than the remaining AP are disabled'",
                attack.attack_ap
            ),
        ));
    }
    Ok((attack, attacks))
}

// ------------------------------------------------------------ the fight

crate::param_struct! {
    /// Parameters of the fight scenario.
    pub struct FightParams {
        ..attack: AttackParams,
        policy: String = choice(&["one", "all", "best"])
            .default("one")
            .about("attacks each turn: one; all the RoF the AP allow; best = the number a turn (1 to RoF) with the fewest expected turns, computed exactly")
            .seed(ROF),
        cap: Opt<i64> = int(1, 100)
            .about("the weapon's CAP: rounds a full load holds, one used per attack roll; unset, the weapon never runs dry (reloads are then timed to win, see reload_ap)")
            .seed(super::reload::CAP_SEED),
        reload_ap: Opt<i64> = int(1, 4)
            .about("AP a reload costs (default 1: the seed gives none, 'An action always costs at least 1 AP'); it fills the weapon to its CAP")
            .seed(super::reload::CAP_SEED)
            .needs_any("cap", "6"),
        loaded: Opt<i64> = int(0, 100)
            .about("rounds in the weapon when the fight starts (default: its CAP)")
            .seed(super::reload::CAP_SEED)
            .needs_any("cap", "6"),
    }
}

/// The fight's own metrics (the rounds metrics follow, as `turns`).
pub const FIGHT_METRICS: [MetricDecl; 8] = [
    MetricDecl::probability(
        "p_dead",
        "P(dead rather than dying)",
        "P(the target ends at Health -10: 'the creature immediately dies')",
    ),
    MetricDecl::probability(
        "p_dying",
        "P(dying)",
        "P(the target ends at Health 0 or less, above -10)",
    ),
    MetricDecl::probability(
        "p_knocked_out",
        "P(knocked out by non-lethal wounds)",
        "P(Health above 0, non-lethal wounds higher than Health, no hit of more than 12 wounds)",
    ),
    MetricDecl::probability(
        "p_overwhelmed",
        "P(more than 12 wounds in one hit)",
        "P(Health above 0 but incapacitated by a hit of more than 12 wounds)",
    ),
    MetricDecl::mean(
        "mean_health_lost",
        "mean Health lost",
        "expected lethal wounds taken by the end (down to Health -10)",
    ),
    MetricDecl::mean(
        "mean_nonlethal",
        "mean non-lethal wounds",
        "expected non-lethal wounds by the end",
    ),
    MetricDecl::mean(
        "mean_durability_left",
        "mean armour Durability left",
        "expected Durability of the armour when the fight ends",
    ),
    MetricDecl::probability(
        "p_spared",
        "P(knocked out instead of killed)",
        "knock-out intent: P(a hit would have killed and was dealt as non-lethal force)",
    ),
];

/// A fight: turns of attacks until the target is incapacitated.
pub struct Fight {
    pub(super) attack: Attack,
    /// Attacks wanted each turn.
    pub(super) wanted: u8,
    list: MetricList,
    m: [Metric; 7],
    spared: Option<Metric>,
}

/// The fight's state between and during turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FightState {
    /// The target.
    pub target: Target,
    /// AP carried into the next turn.
    pub carried: u8,
    /// Attacks planned this turn (0 between turns).
    pub planned: u8,
}

impl Fight {
    /// The attacks made in a turn starting with `ap`.
    pub fn attacks_with(&self, ap: u8) -> u8 {
        affordable_attacks(ap, self.attack.attack_ap, self.wanted.min(self.attack.rof))
    }

    /// AP carried out of a turn with `carried` brought in.
    fn carry(&self, carried: u8) -> u8 {
        let ap = ap_at_turn_start(carried);
        ap - attacks_cost(self.attacks_with(ap), self.attack.attack_ap)
    }

    /// The attacks made each turn once the carried AP settle (they only
    /// grow: the carry map is non-decreasing from 0).
    fn settled_attacks(&self) -> u8 {
        let mut c = 0;
        for _ in 0..8 {
            c = self.carry(c);
        }
        self.attacks_with(ap_at_turn_start(c))
    }
}

impl Repeated for Fight {
    type State = FightState;
    const ROUND: &'static str = "turns";

    fn start(&self) -> FightState {
        FightState {
            target: self.attack.fresh_target(),
            carried: 0,
            planned: 0,
        }
    }

    fn over(&self, s: &FightState) -> bool {
        s.target.incapacitated()
    }

    fn sub_steps(&self) -> usize {
        1 + usize::from(self.attack.rof)
    }

    fn sub_step<R: Roller>(&self, i: usize, dice: &mut R, s: &mut FightState) {
        if i == 0 {
            let ap = ap_at_turn_start(s.carried);
            s.planned = self.attacks_with(ap);
            s.carried = ap - attacks_cost(s.planned, self.attack.attack_ap);
        } else if i <= usize::from(s.planned) {
            // every planned attack is rolled, even after the target drops
            self.attack.resolve((i - 1) as u8, dice, &mut s.target);
        }
    }

    fn metrics(&self) -> &MetricList {
        &self.list
    }

    fn record(&self, s: &FightState, sink: &mut impl MetricSink) {
        self.record_target(&s.target, sink);
    }

    fn end_round(&self, s: &mut FightState) {
        s.planned = 0;
    }
}

impl Fight {
    /// Records the fight's own metrics for the target as the fight left it.
    pub(super) fn record_target(&self, t: &Target, sink: &mut impl MetricSink) {
        let [dead, dying, ko, overwhelmed, lost, nonlethal, durability] = self.m;
        sink.record(dead, u64::from(t.dead()));
        sink.record(dying, u64::from(t.dying()));
        sink.record(overwhelmed, u64::from(t.health > 0 && t.overwhelmed));
        sink.record(
            ko,
            u64::from(t.health > 0 && !t.overwhelmed && t.knocked_out()),
        );
        sink.record(lost, (self.attack.defence.health - t.health) as u64);
        sink.record(nonlethal, t.nonlethal as u64);
        sink.record(durability, t.durability as u64);
        if let Some(m) = self.spared {
            sink.record(m, u64::from(t.spared));
        }
    }
}

fn fight_model(attack: Attack, wanted: u8) -> RepeatModel<Fight> {
    RepeatModel::new(fight_rule(attack, wanted), TURNS_SHOWN)
}

/// The fight's rule: `wanted` attacks a turn, as the AP allow.
pub(super) fn fight_rule(attack: Attack, wanted: u8) -> Fight {
    let mut list = MetricList::new();
    let [own @ .., spared] = &FIGHT_METRICS;
    let m = own.each_ref().map(|d| list.add(d));
    let spared = (attack.intent == Intent::KnockOut).then(|| list.add(spared));
    Fight {
        attack,
        wanted,
        list,
        m,
        spared,
    }
}

/// Most target states (Health x non-lethal x Durability) the fight's exact
/// evaluator takes on: about a second per policy (measured: 40,000 in
/// 0.15 s; 2.3 million took 50 s and 1 GB). Larger fights are sampled only.
pub const MAX_EXACT_STATES: u64 = 500_000;

impl Attack {
    /// An upper bound on the target states a fight can reach: Health from
    /// full to -10, non-lethal wounds (only when a hit can end at 0 or
    /// less), Durability from full to 0.
    pub(super) fn target_states(&self) -> u64 {
        let health = (self.defence.health - DEAD_AT + 1) as u64;
        let can_end_at_zero = self.damage <= 0
            || (!self.armour_piercing && self.durability > 0 && self.damage <= self.defence.dr)
            || (self.dodge.is_some() && self.dodged_deals == DodgeDamage::OneNonLethal);
        let nonlethal = if can_end_at_zero {
            (self.defence.health + 2) as u64
        } else {
            1
        };
        health * nonlethal * (self.durability as u64 + 1)
    }
}

/// The fight's model: the chain, evaluated exactly when it is small
/// enough.
struct FightModel {
    chain: RepeatModel<Fight>,
    exact: bool,
}

impl Model for FightModel {
    fn metrics(&self) -> &[MetricDef] {
        self.chain.metrics()
    }

    fn plan(&self, trials: u64) {
        self.chain.plan(trials);
    }

    fn run_chunk(&self, roller: &mut BatchedRoller, trials: u64, tally: &mut Tally) {
        self.chain.run_chunk(roller, trials, tally);
    }

    fn sampler(&self) -> Sampler {
        self.chain.sampler()
    }

    fn run_reference(&self, roller: &mut BatchedRoller, trials: u64, tally: &mut Tally) {
        self.chain.run_trials(roller, trials, tally);
    }

    fn exact(&self) -> Option<Vec<f64>> {
        if self.exact { self.chain.exact() } else { None }
    }

    fn sample_one(&self, roller: &mut BatchedRoller, values: &mut [u64]) {
        self.chain.sample_one(roller, values);
    }
}

/// Builds the fight scenario.
pub fn build_fight(p: &Params, variants: &Params) -> Result<Box<dyn Model>, ParamError> {
    let p = FightParams::read(p)?;
    let attack = p.attack.attack(variants)?;
    if let Some(cap) = p.cap.value {
        let ammo = super::reload::Ammo::new(
            cap as u8,
            p.reload_ap.value.unwrap_or(1) as u8,
            p.loaded.value.map(|l| l as u8),
        )
        .map_err(|m| ParamError::new(p.loaded.name(), m))?;
        return super::reload::build(attack, ammo, &p.policy);
    }
    for given in [&p.reload_ap, &p.loaded] {
        if given.value.is_some() {
            return Err(ParamError::new(
                given.name(),
                "a weapon's rounds are counted only with its CAP: set cap",
            ));
        }
    }
    let rof = attack.rof;
    let policy = p.policy;
    let exact = attack.target_states() <= MAX_EXACT_STATES;
    let candidates: Vec<u8> = match policy.as_str() {
        "all" => vec![rof],
        "best" => (1..=rof).collect(),
        _ => vec![1],
    };
    if policy == "best" && !exact {
        return Err(ParamError::new(
            crate::param_name!(FightParams.policy),
            format!(
                "the best policy is computed exactly, and this fight has up to {} target states, more than the {MAX_EXACT_STATES} the exact evaluator takes on: use \"one\" or \"all\" (sampled), or fewer Health or Durability",
                attack.target_states()
            ),
        ));
    }
    let mut best: Option<(f64, RepeatModel<Fight>)> = None;
    for wanted in candidates {
        let chain = fight_model(attack.clone(), wanted);
        let fight = chain.rule();
        let lands = (0..fight.settled_attacks()).any(|i| attack.p_lands(i) > 0.0);
        if !lands {
            let field = if attack.hittable {
                crate::param_name!(AttackParams.skill)
            } else {
                crate::param_name!(AttackParams.cover)
            };
            return Err(ParamError::new(
                field,
                "the fight never ends: no attack can land on the target (total cover, or a DL the roll cannot reach)",
            ));
        }
        if policy != "best" {
            return Ok(Box::new(FightModel { chain, exact }));
        }
        let mean_turns = chain
            .exact()
            .and_then(|v| {
                let i = chain
                    .metrics()
                    .iter()
                    .position(|d| d.name == "mean_turns")?;
                Some(v[i])
            })
            .ok_or_else(|| {
                ParamError::new(
                    crate::param_name!(FightParams.policy),
                    "the best policy needs the exact evaluator, and this fight is too large for it",
                )
            })?;
        // ties keep the fewer attacks (strictly better only)
        if best.as_ref().is_none_or(|(b, _)| mean_turns < *b - 1e-12) {
            best = Some((mean_turns, chain));
        }
    }
    let (_, chain) = best.expect("at least one candidate");
    Ok(Box::new(FightModel { chain, exact }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::testing::exact as value;

    fn params(pairs: &[(&str, &str)]) -> Params {
        Params::from_pairs(pairs)
    }

    const BASE: &[(&str, &str)] = &[("skill", "3"), ("damage", "5"), ("target_health", "10")];

    fn with(extra: &[(&str, &str)]) -> Params {
        params(&[BASE, extra].concat())
    }

    #[test]
    fn rof_penalty_cover_and_parry_set_the_hit_chance() {
        // ranged: 2d6 + 3 >= 4 always, then the second at -2: 2d6 + 1 >= 4
        let m = crate::systems::crisis::RULES
            .build(
                "attack",
                &with(&[("rof", "2"), ("attacks", "2")]),
                &Params::new(),
            )
            .unwrap();
        let p1 = 1.0;
        let p2 = 35.0 / 36.0;
        assert!((value(&*m, "mean_hits") - (p1 + p2)).abs() < 1e-12);
        // heavy cover -4, penetrable: -2
        let m = crate::systems::crisis::RULES
            .build(
                "attack",
                &with(&[("cover", "heavy"), ("penetrable", "true")]),
                &Params::new(),
            )
            .unwrap();
        assert!((value(&*m, "p_hit") - 35.0 / 36.0).abs() < 1e-12);
        let m = crate::systems::crisis::RULES
            .build("attack", &with(&[("cover", "total")]), &Params::new())
            .unwrap();
        assert_eq!(value(&*m, "p_hit"), 0.0);
        // melee against Parry 10: 2d6 + 3 >= 10
        let m = crate::systems::crisis::RULES
            .build(
                "attack",
                &with(&[("kind", "melee"), ("target_parry", "10")]),
                &Params::new(),
            )
            .unwrap();
        assert!((value(&*m, "p_hit") - 21.0 / 36.0).abs() < 1e-12);
    }

    #[test]
    fn hits_go_through_the_armour() {
        let m = crate::systems::crisis::RULES
            .build(
                "attack",
                &params(&[
                    ("skill", "2"),
                    ("damage", "5"),
                    ("target_health", "10"),
                    ("armour_dr", "3"),
                    ("armour_durability", "10"),
                    ("kind", "area"),
                ]),
                &Params::new(),
            )
            .unwrap();
        // area: no Extras damage, always hits: the worked example every time
        assert!((value(&*m, "mean_durability_left") - 7.0).abs() < 1e-12);
        assert!((value(&*m, "mean_health_lost") - 2.0).abs() < 1e-12);
    }

    /// Every hit ends the fight: damage 4 against Health 4, no armour, a
    /// hit takes Health to 0 or less ("Dying"), Extras only add to it.
    /// Skill 0 against DL 4 on 2d6: "a cumulative -2 penalty on HIT, per
    /// extra Attack", so the first attack needs 4+ on 2d6 (33/36), the
    /// second 6+ (26/36), the third 8+ (15/36). "At the start of each
    /// turn ... the character recovers 4 AP", "Any AP over 6 are lost",
    /// the first attack costs `attack_ap` 2, each extra RoF attack 1:
    /// - one a turn: P(a turn ends it) = 11/12, mean turns 12/11;
    /// - all (RoF 4): 4 AP pay for 3 attacks (2 + 1 + 1) and carry 0, so
    ///   3 a turn; all three miss with 3/36 * 10/36 * 21/36 = 35/2592,
    ///   mean turns 2592/2557;
    /// - best: 2 a turn miss with 3/36 * 10/36 = 5/216 (216/211 turns), 4
    ///   a turn is the 3 the AP allow (a tie keeps the fewer): 2592/2557.
    #[test]
    fn the_fight_lasts_the_turns_its_attacks_take() {
        let base = [
            ("skill", "0"),
            ("damage", "4"),
            ("target_health", "4"),
            ("rof", "4"),
            ("attack_ap", "2"),
        ];
        let turns = |policy: &str| {
            let m = crate::systems::crisis::RULES
                .build(
                    "fight",
                    &params(&[&base[..], &[("policy", policy)]].concat()),
                    &Params::new(),
                )
                .unwrap();
            value(&*m, "mean_turns")
        };
        assert!((turns("one") - 12.0 / 11.0).abs() < 1e-12);
        assert!((turns("all") - 2592.0 / 2557.0).abs() < 1e-12);
        assert!((turns("best") - 2592.0 / 2557.0).abs() < 1e-12);
        let attack = FightParams::read(&params(&base).bound(FightParams::decls()))
            .and_then(|p| p.attack.attack(&Params::new()))
            .unwrap();
        assert_eq!(fight_model(attack.clone(), 4).rule().settled_attacks(), 3);
        assert_eq!(fight_model(attack, 2).rule().settled_attacks(), 2);
        let e = crate::systems::crisis::RULES
            .build(
                "fight",
                &params(&[&base[..], &[("cover", "total")]].concat()),
                &Params::new(),
            )
            .err()
            .unwrap();
        assert_eq!(e.field, "cover");
        assert!(e.message.contains("never ends"));
    }

    #[test]
    fn large_fights_are_sampled_and_the_best_policy_refuses_them() {
        let big = [
            ("skill", "0"),
            ("damage", "3"),
            ("target_health", "100"),
            ("armour_dr", "3"),
            ("armour_durability", "200"),
            ("rof", "2"),
        ];
        let m = crate::systems::crisis::RULES
            .build("fight", &params(&big), &Params::new())
            .unwrap();
        assert!(m.exact().is_none());
        let e = crate::systems::crisis::RULES
            .build(
                "fight",
                &params(&[&big[..], &[("policy", "best")]].concat()),
                &Params::new(),
            )
            .err()
            .unwrap();
        assert_eq!(e.field, "policy");
        // armour-piercing: no non-lethal wounds possible, few states, exact
        let m = crate::systems::crisis::RULES
            .build(
                "fight",
                &params(&[&big[..], &[("armour_piercing", "true")]].concat()),
                &Params::new(),
            )
            .unwrap();
        assert!(m.exact().is_some());
    }

    #[test]
    fn knock_out_intent_leaves_no_one_dead() {
        // a 20-damage gun against Health 5: every hit would kill
        let fight = |intent: &str| {
            crate::systems::crisis::RULES
                .build(
                    "fight",
                    &params(&[
                        ("skill", "0"),
                        ("damage", "20"),
                        ("target_health", "5"),
                        ("intent", intent),
                    ]),
                    &Params::new(),
                )
                .unwrap()
        };
        let m = fight("kill");
        assert!((value(&*m, "p_dead") - 1.0).abs() < 1e-12);
        let m = fight("knock_out");
        assert_eq!(value(&*m, "p_dead"), 0.0);
        assert!((value(&*m, "p_spared") - 1.0).abs() < 1e-12);
        // knocked out at full Health, more than 12 wounds in the one hit
        assert!((value(&*m, "p_overwhelmed") - 1.0).abs() < 1e-12);
        assert!((value(&*m, "mean_health_lost")).abs() < 1e-12);
    }

    #[test]
    fn carried_ap_follow_the_cap() {
        let attack = FightParams::read(
            &with(&[("rof", "4"), ("attack_ap", "2")]).bound(FightParams::decls()),
        )
        .and_then(|p| p.attack.attack(&Params::new()))
        .unwrap();
        let one = fight_model(attack.clone(), 1);
        let f = one.rule();
        // one 2-AP attack: 4 -> carry 2 -> 6 -> carry 4 -> 6 (capped) -> carry 4
        assert_eq!(f.carry(0), 2);
        assert_eq!(f.carry(2), 4);
        assert_eq!(f.carry(4), 4);
        let all = fight_model(attack, 4);
        let f = all.rule();
        // all four: 4 AP pay for 3 (2 + 1 + 1), nothing carried
        assert_eq!(f.attacks_with(4), 3);
        assert_eq!(f.carry(0), 0);
        assert_eq!(f.attacks_with(6), 4);
    }
}
