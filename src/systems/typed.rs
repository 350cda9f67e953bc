//! Typed parameters: a scenario declares its parameters as the fields of
//! a struct ([`param_struct!`]), each with its declaration beside it, and
//! its rule reads them once, by field, into that struct. The field's name
//! is the parameter's name, so the rule never spells a key, and a
//! parameter the rule reads is one its scenario declares by construction.

use super::{ParamDecl, ParamError, Params};

/// A value read from [`Params`] under a declared name: the field types a
/// [`param_struct!`] may hold.
pub trait FromParam: Sized {
    /// Reads parameter `name`; a required one that is missing is an error.
    fn from_param(p: &Params, name: &str) -> Result<Self, ParamError>;
}

impl FromParam for i64 {
    fn from_param(p: &Params, name: &str) -> Result<Self, ParamError> {
        p.need_int(name)
    }
}

impl FromParam for f64 {
    fn from_param(p: &Params, name: &str) -> Result<Self, ParamError> {
        p.need_real(name)
    }
}

impl FromParam for bool {
    fn from_param(p: &Params, name: &str) -> Result<Self, ParamError> {
        p.flag(name)
    }
}

/// A word (a choice or a text the rule parses), trimmed and lower-cased.
impl FromParam for String {
    fn from_param(p: &Params, name: &str) -> Result<Self, ParamError> {
        p.need_word(name)
    }
}

/// A parameter that may be left out: its value if given (or defaulted),
/// and its name, so a rule that needs it after all says which one is
/// missing without spelling the key.
#[derive(Clone, Debug, PartialEq)]
pub struct Opt<T> {
    /// The value, if given.
    pub value: Option<T>,
    name: String,
    about: String,
}

impl<T: Clone> Opt<T> {
    /// The value, or the "missing: set ..." error a spec is shown.
    pub fn need(&self) -> Result<T, ParamError> {
        self.value.clone().ok_or_else(|| {
            ParamError::missing(
                self.name.clone(),
                format!("missing: set {} ({})", self.name, self.about),
            )
        })
    }

    /// The parameter's name, for an error about its value.
    pub fn name(&self) -> &str {
        &self.name
    }
}

fn opt<T>(p: &Params, name: &str, value: Option<T>) -> Opt<T> {
    let about = p
        .decls()
        .iter()
        .find(|d| d.name == name)
        .map(|d| d.about.clone())
        .unwrap_or_default();
    Opt {
        value,
        name: name.to_string(),
        about,
    }
}

impl FromParam for Opt<i64> {
    fn from_param(p: &Params, name: &str) -> Result<Self, ParamError> {
        Ok(opt(p, name, p.int(name)?))
    }
}

impl FromParam for Opt<f64> {
    fn from_param(p: &Params, name: &str) -> Result<Self, ParamError> {
        Ok(opt(p, name, p.real(name)?))
    }
}

impl FromParam for Opt<String> {
    fn from_param(p: &Params, name: &str) -> Result<Self, ParamError> {
        Ok(opt(p, name, p.word(name)?))
    }
}

/// A parameter whose rule asks whether the spec gave it (or a preset
/// filled it in), besides its value: for some, the declared default
/// stands for "not said" (`firing_ap` left out takes what moving leaves),
/// for a flag, false given is not false left out.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Given<T> {
    /// The value: given, else the declared default (a flag's: false).
    pub value: T,
    /// Whether the spec (or a preset) gave it.
    pub given: bool,
}

impl<T: Copy> Given<T> {
    /// The value if given.
    pub fn given_value(&self) -> Option<T> {
        self.given.then_some(self.value)
    }
}

/// A whole number with a default (a required one or one without a
/// default is not "said or not" but missing or optional: [`Opt`]).
impl FromParam for Given<i64> {
    fn from_param(p: &Params, name: &str) -> Result<Self, ParamError> {
        Ok(Given {
            given: p.has(name),
            value: p.need_int(name)?,
        })
    }
}

impl FromParam for Given<bool> {
    fn from_param(p: &Params, name: &str) -> Result<Self, ParamError> {
        Ok(Given {
            given: p.has(name),
            value: p.flag(name)?,
        })
    }
}

/// A word with a default, trimmed and lower-cased (a template's coverage
/// set for a shot that has none is refused, a default one is not).
impl FromParam for Given<String> {
    fn from_param(p: &Params, name: &str) -> Result<Self, ParamError> {
        Ok(Given {
            given: p.has(name),
            value: p.need_word(name)?,
        })
    }
}

/// A parameter type that carries its own declaration (a Difficulty Level
/// by number or name): a [`param_struct!`] entry `name: Type =
/// declared()` declares it so.
pub trait Declared: FromParam {
    /// The declaration of a parameter of this type named `name`.
    fn declare(name: String) -> ParamDecl;
}

/// A set of parameters declared and read together: a scenario's, or a
/// group several scenarios share (a Skill roll's dice), possibly under a
/// prefix (`a_` and `b_` for two fighters).
pub trait ParamGroup: Sized {
    /// The declarations, each name after `prefix`, in the order a spec's
    /// template and `krunch list` show them.
    fn decls_with(prefix: &str) -> Vec<ParamDecl>;
    /// Every field read from `p`, each name after `prefix`.
    fn read_with(p: &Params, prefix: &str) -> Result<Self, ParamError>;
    /// The declarations without a prefix.
    fn decls() -> Vec<ParamDecl> {
        Self::decls_with("")
    }
    /// Every field read from `p`, without a prefix.
    fn read(p: &Params) -> Result<Self, ParamError> {
        Self::read_with(p, "")
    }
}

/// Declares a struct of typed parameters and implements [`ParamGroup`]
/// for it. Each entry is one of:
///
/// - `name: Type = kind(args).about("...").seed(SECTION),`: a parameter
///   named `name`, declared as `ParamDecl::kind("name", args)` with the
///   builder calls given, read as `Type` ([`FromParam`]);
/// - `..name: Group,`: every parameter of another [`ParamGroup`], under
///   the same prefix, in place;
/// - `name: Type = declared().default("4"),`: a parameter whose type
///   declares it ([`Declared`]);
/// - `name: Group = prefixed("a_"),`: another group under a further prefix.
///
/// ```ignore
/// param_struct! {
///     /// Parameters of the damage scenario.
///     pub struct DamageParams {
///         ..roll: RollParams,
///         skill: Opt<i64> = int(-10, 30).about("the attacker's skill").seed(DAMAGE),
///         damage: i64 = int(0, 100).required().about("the weapon's DMG").seed(DAMAGE),
///     }
/// }
/// ```
#[macro_export]
macro_rules! param_struct {
    ($(#[$meta:meta])* $vis:vis struct $name:ident { $($body:tt)* }) => {
        $crate::param_struct!(@parse [$(#[$meta])* $vis struct $name] [] [] $($body)*);
    };
    // a group under a further prefix
    (@parse $head:tt [$($fields:tt)*] [$($items:tt)*]
        $field:ident : $ty:ty = prefixed($prefix:expr), $($rest:tt)*) => {
        $crate::param_struct!(@parse $head
            [$($fields)* #[doc = concat!("The `", stringify!($field), "` group.")] pub $field: $ty,]
            [$($items)* ($field group [$prefix] : $ty)]
            $($rest)*);
    };
    // a parameter
    (@parse $head:tt [$($fields:tt)*] [$($items:tt)*]
        $field:ident : $ty:ty = $kind:ident ($($args:tt)*) $(. $method:ident ($($margs:tt)*))*,
        $($rest:tt)*) => {
        $crate::param_struct!(@parse $head
            [$($fields)* #[doc = concat!("Parameter `", stringify!($field), "`.")] pub $field: $ty,]
            [$($items)* ($field param [$kind ($($args)*) $(. $method ($($margs)*))*] : $ty)]
            $($rest)*);
    };
    // a group in place
    (@parse $head:tt [$($fields:tt)*] [$($items:tt)*]
        .. $field:ident : $ty:ty, $($rest:tt)*) => {
        $crate::param_struct!(@parse $head
            [$($fields)* #[doc = concat!("The `", stringify!($field), "` group.")] pub $field: $ty,]
            [$($items)* ($field group [""] : $ty)]
            $($rest)*);
    };
    (@parse [$(#[$meta:meta])* $vis:vis struct $name:ident] [$($fields:tt)*]
        [$(($field:ident $how:ident $what:tt : $ty:ty))*]) => {
        $(#[$meta])*
        #[derive(Clone, Debug)]
        $vis struct $name { $($fields)* }

        impl $crate::systems::ParamGroup for $name {
            fn decls_with(prefix: &str) -> Vec<$crate::systems::ParamDecl> {
                let mut decls = Vec::new();
                $($crate::param_struct!(@decl decls prefix $field $how $what : $ty);)*
                decls
            }
            fn read_with(
                p: &$crate::systems::Params,
                prefix: &str,
            ) -> Result<Self, $crate::systems::ParamError> {
                $(let $field = $crate::param_struct!(@read p prefix $field $how $what : $ty);)*
                Ok($name { $($field),* })
            }
        }
    };
    (@decl $decls:ident $prefix:ident $field:ident
        param [declared () $(. $method:ident ($($margs:tt)*))*] : $ty:ty) => {
        $decls.push(
            <$ty as $crate::systems::Declared>::declare(
                format!("{}{}", $prefix, stringify!($field)),
            ) $(. $method ($($margs)*))*
        )
    };
    (@decl $decls:ident $prefix:ident $field:ident
        param [$kind:ident ($($args:tt)*) $(. $method:ident ($($margs:tt)*))*] : $ty:ty) => {
        $decls.push(
            $crate::systems::ParamDecl::$kind(
                format!("{}{}", $prefix, stringify!($field)),
                $($args)*
            ) $(. $method ($($margs)*))*
        )
    };
    (@decl $decls:ident $prefix:ident $field:ident group [$more:expr] : $ty:ty) => {
        $decls.extend(
            <$ty as $crate::systems::ParamGroup>::decls_with(&format!("{}{}", $prefix, $more))
        )
    };
    (@read $p:ident $prefix:ident $field:ident param $decl:tt : $ty:ty) => {
        <$ty as $crate::systems::FromParam>::from_param(
            $p,
            &format!("{}{}", $prefix, stringify!($field)),
        )?
    };
    (@read $p:ident $prefix:ident $field:ident group [$more:expr] : $ty:ty) => {
        <$ty as $crate::systems::ParamGroup>::read_with($p, &format!("{}{}", $prefix, $more))?
    };
}

/// The name of parameter `field` of a [`param_struct!`] `Type`, checked
/// at compile time: `param_name!(DamageParams.wounds_before)` is
/// `"wounds_before"`, and a misspelt field does not compile. For errors
/// about a value that name the parameter.
#[macro_export]
macro_rules! param_name {
    ($ty:ident . $field:ident) => {{
        let _field_exists = |p: &$ty| {
            let _ = &p.$field;
        };
        stringify!($field)
    }};
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::ParamErrorKind;

    crate::param_struct! {
        /// Two dice: a group shared by the fighters below.
        struct Dice {
            sides: i64 = int(2, 20).default("6").about("sides of a die"),
            explode: bool = flag().about("sixes roll again"),
        }
    }

    crate::param_struct! {
        /// A duel: a required number, optional ones, a group in place and
        /// two under prefixes.
        struct Duel {
            rounds: i64 = int(1, 9).required().about("rounds to fight"),
            ..dice: Dice,
            bonus: Opt<i64> = int(0, 3).about("a bonus, if any"),
            policy: String = choice(&["one", "all"]).default("one"),
            share: Opt<f64> = real(0.0, 1.0),
            a: Dice = prefixed("a_"),
            b: Dice = prefixed("b_"),
        }
    }

    fn bound(pairs: &[(&str, &str)]) -> Params {
        Params::from_pairs(pairs).bound(Duel::decls())
    }

    /// The declarations are the fields', named after them and their
    /// prefixes, in the order written, groups in place.
    #[test]
    fn declarations_are_named_by_their_fields_in_order() {
        let names: Vec<String> = Duel::decls().into_iter().map(|d| d.name).collect();
        assert_eq!(
            names,
            [
                "rounds",
                "sides",
                "explode",
                "bonus",
                "policy",
                "share",
                "a_sides",
                "a_explode",
                "b_sides",
                "b_explode"
            ]
        );
        let d = &Duel::decls()[0];
        assert_eq!(d.need_text(), "required");
        assert_eq!(d.about, "rounds to fight");
    }

    /// Each field reads its own parameter: given values, defaults, flags,
    /// optional ones left out, and each prefixed group its own.
    #[test]
    fn fields_read_their_own_parameters() {
        let duel = Duel::read(&bound(&[
            ("rounds", "3"),
            ("explode", "true"),
            ("policy", "All"),
            ("a_sides", "8"),
            ("b_explode", "true"),
        ]))
        .unwrap();
        assert_eq!(duel.rounds, 3);
        assert_eq!((duel.dice.sides, duel.dice.explode), (6, true));
        assert_eq!(duel.bonus.value, None);
        assert_eq!(duel.policy, "all");
        assert_eq!(duel.share.value, None);
        assert_eq!((duel.a.sides, duel.a.explode), (8, false));
        assert_eq!((duel.b.sides, duel.b.explode), (6, true));
    }

    /// A required parameter left out is missing, named; an optional one a
    /// rule needs after all says its own name and meaning.
    #[test]
    fn missing_ones_are_named() {
        let e = Duel::read(&bound(&[])).unwrap_err();
        assert_eq!(
            (e.kind, e.field.as_str()),
            (ParamErrorKind::Missing, "rounds")
        );
        let duel = Duel::read(&bound(&[("rounds", "1")])).unwrap();
        let e = duel.bonus.need().unwrap_err();
        assert_eq!(e.kind, ParamErrorKind::Missing);
        assert_eq!(e.message, "missing: set bonus (a bonus, if any)");
        assert_eq!(duel.bonus.name(), "bonus");
        let duel = Duel::read(&bound(&[("rounds", "1"), ("bonus", "2")])).unwrap();
        assert_eq!(duel.bonus.need(), Ok(2));
        assert_eq!(crate::param_name!(Duel.policy), "policy");
    }

    crate::param_struct! {
        /// A defaulted number and a flag whose rule asks whether they were
        /// given.
        struct Said {
            ap: Given<i64> = int(1, 2).default("1"),
            heavy: Given<bool> = flag(),
        }
    }

    /// A default stands in for the value but not for "given": a value the
    /// spec gives equal to the default, or a flag given false, is given.
    #[test]
    fn given_tells_a_given_value_from_its_default() {
        let read = |pairs: &[(&str, &str)]| {
            Said::read(&Params::from_pairs(pairs).bound(Said::decls())).unwrap()
        };
        let left = read(&[]);
        assert_eq!(
            left.ap,
            Given {
                value: 1,
                given: false
            }
        );
        assert_eq!(
            left.heavy,
            Given {
                value: false,
                given: false
            }
        );
        assert_eq!(left.ap.given_value(), None);
        let said = read(&[("ap", "1"), ("heavy", "false")]);
        assert_eq!(
            said.ap,
            Given {
                value: 1,
                given: true
            }
        );
        assert_eq!(
            said.heavy,
            Given {
                value: false,
                given: true
            }
        );
        assert_eq!(said.ap.given_value(), Some(1));
    }
}
