//! The configuration representation (`configuration` in plans), read lazily.
//!
//! The configuration is kept as written ([`Configuration::raw`]); these light views give
//! typed access to the parts tools use (module tree, resources, provider configurations,
//! expressions and their references). They never fail: a property of the wrong kind reads
//! as absent.

use crate::json::{Json, ObjectIter};
use crate::values::Mode;

fn str_of<'a>(v: Json<'a>, key: &str) -> Option<&'a str> {
    v.get(key)?.as_str()
}

fn members<'a>(v: Option<Json<'a>>) -> impl Iterator<Item = (&'a str, Json<'a>)> + use<'a> {
    v.and_then(|v| v.as_object())
        .map(|o| o.iter())
        .into_iter()
        .flatten()
}

fn elements<'a>(v: Option<Json<'a>>) -> impl Iterator<Item = Json<'a>> + use<'a> {
    v.and_then(|v| v.as_array()).into_iter().flatten()
}

/// `configuration`: the configuration being applied.
#[derive(Clone, Copy, Debug)]
pub struct Configuration<'a> {
    /// The whole object as written.
    pub raw: Json<'a>,
}

impl<'a> Configuration<'a> {
    /// `root_module`.
    pub fn root_module(&self) -> Option<ConfigModule<'a>> {
        self.raw
            .get("root_module")
            .filter(|m| m.as_object().is_some())
            .map(|raw| ConfigModule { raw })
    }

    /// `provider_config`: every provider configuration of the module tree, by its opaque
    /// key (see [`ConfigResource::provider_config_key`]).
    pub fn provider_configs(
        &self,
    ) -> impl Iterator<Item = (&'a str, ProviderConfig<'a>)> + use<'a> {
        members(self.raw.get("provider_config")).map(|(k, raw)| (k, ProviderConfig { raw }))
    }

    /// The provider configuration with this key.
    pub fn provider_config(&self, key: &str) -> Option<ProviderConfig<'a>> {
        self.raw
            .get("provider_config")?
            .get(key)
            .map(|raw| ProviderConfig { raw })
    }
}

/// A module in the configuration: `root_module` or a module call's `module`.
#[derive(Clone, Copy, Debug)]
pub struct ConfigModule<'a> {
    /// The whole object as written.
    pub raw: Json<'a>,
}

impl<'a> ConfigModule<'a> {
    /// `resources`: the `resource` and `data` blocks.
    pub fn resources(&self) -> impl Iterator<Item = ConfigResource<'a>> + use<'a> {
        elements(self.raw.get("resources")).map(|raw| ConfigResource { raw })
    }

    /// `module_calls`: the `module` blocks, by name.
    pub fn module_calls(&self) -> impl Iterator<Item = (&'a str, ModuleCall<'a>)> + use<'a> {
        members(self.raw.get("module_calls")).map(|(k, raw)| (k, ModuleCall { raw }))
    }

    /// `outputs`: output blocks by name (`expression`, `sensitive`, `description`, ...).
    pub fn outputs(&self) -> ObjectIterOrEmpty<'a> {
        ObjectIterOrEmpty(
            self.raw
                .get("outputs")
                .and_then(|o| o.as_object())
                .map(|o| o.iter()),
        )
    }

    /// `variables`: variable blocks by name (`default`, `description`, `sensitive`, ...).
    pub fn variables(&self) -> ObjectIterOrEmpty<'a> {
        ObjectIterOrEmpty(
            self.raw
                .get("variables")
                .and_then(|o| o.as_object())
                .map(|o| o.iter()),
        )
    }
}

/// The members of an object that may be absent.
#[derive(Clone)]
pub struct ObjectIterOrEmpty<'a>(Option<ObjectIter<'a>>);

impl<'a> Iterator for ObjectIterOrEmpty<'a> {
    type Item = (&'a str, Json<'a>);
    fn next(&mut self) -> Option<(&'a str, Json<'a>)> {
        self.0.as_mut()?.next()
    }
}

/// The accessors of the arguments and meta-arguments a module call and a resource block have
/// alike: `expressions` (what the literal says they are), `count_expression`,
/// `for_each_expression` and `depends_on`.
macro_rules! arguments {
    ($what:literal) => {
        #[doc = concat!("`expressions`: ", $what, ".")]
        pub fn expressions(&self) -> Option<BlockExpressions<'a>> {
            BlockExpressions::of(self.raw.get("expressions"))
        }

        /// `count_expression`.
        pub fn count_expression(&self) -> Option<Expression<'a>> {
            Expression::of(self.raw.get("count_expression"))
        }

        /// `for_each_expression`.
        pub fn for_each_expression(&self) -> Option<Expression<'a>> {
            Expression::of(self.raw.get("for_each_expression"))
        }

        /// `depends_on`.
        pub fn depends_on(&self) -> impl Iterator<Item = &'a str> + use<'a> {
            elements(self.raw.get("depends_on")).filter_map(|s| s.as_str())
        }
    };
}

/// A `module` block.
#[derive(Clone, Copy, Debug)]
pub struct ModuleCall<'a> {
    /// The whole object as written.
    pub raw: Json<'a>,
}

impl<'a> ModuleCall<'a> {
    /// `source` (`resolved_source` in newer documents, tried first).
    pub fn source(&self) -> Option<&'a str> {
        str_of(self.raw, "resolved_source").or_else(|| str_of(self.raw, "source"))
    }

    /// `version_constraint`.
    pub fn version_constraint(&self) -> Option<&'a str> {
        str_of(self.raw, "version_constraint")
    }

    /// `module`: the called module's configuration.
    pub fn module(&self) -> Option<ConfigModule<'a>> {
        self.raw
            .get("module")
            .filter(|m| m.as_object().is_some())
            .map(|raw| ConfigModule { raw })
    }

    arguments!("the module's input arguments");
}

/// A `resource` or `data` block.
#[derive(Clone, Copy, Debug)]
pub struct ConfigResource<'a> {
    /// The whole object as written.
    pub raw: Json<'a>,
}

impl<'a> ConfigResource<'a> {
    /// `address` (module-relative), e.g. `aws_instance.web`.
    pub fn address(&self) -> Option<&'a str> {
        str_of(self.raw, "address")
    }

    /// `mode`.
    pub fn mode(&self) -> Option<Mode<'a>> {
        str_of(self.raw, "mode").map(Mode::from_name)
    }

    /// `type`.
    pub fn type_name(&self) -> Option<&'a str> {
        str_of(self.raw, "type")
    }

    /// `name`.
    pub fn name(&self) -> Option<&'a str> {
        str_of(self.raw, "name")
    }

    /// `provider_config_key`: the key into [`Configuration::provider_config`].
    pub fn provider_config_key(&self) -> Option<&'a str> {
        str_of(self.raw, "provider_config_key")
    }

    /// `schema_version`.
    pub fn schema_version(&self) -> Option<u64> {
        self.raw.get("schema_version")?.as_u64()
    }

    arguments!("the block's arguments");
}

/// A provider configuration.
#[derive(Clone, Copy, Debug)]
pub struct ProviderConfig<'a> {
    /// The whole object as written.
    pub raw: Json<'a>,
}

impl<'a> ProviderConfig<'a> {
    /// `name`, e.g. `aws`.
    pub fn name(&self) -> Option<&'a str> {
        str_of(self.raw, "name")
    }

    /// `full_name`, e.g. `registry.terraform.io/hashicorp/aws`.
    pub fn full_name(&self) -> Option<&'a str> {
        str_of(self.raw, "full_name")
    }

    /// `alias`.
    pub fn alias(&self) -> Option<&'a str> {
        str_of(self.raw, "alias")
    }

    /// `module_address`, for configurations declared in a child module.
    pub fn module_address(&self) -> Option<&'a str> {
        str_of(self.raw, "module_address")
    }

    /// `version_constraint`.
    pub fn version_constraint(&self) -> Option<&'a str> {
        str_of(self.raw, "version_constraint")
    }

    /// `expressions`.
    pub fn expressions(&self) -> Option<BlockExpressions<'a>> {
        BlockExpressions::of(self.raw.get("expressions"))
    }
}

/// A block expressions representation: argument name to an expression, a nested block,
/// or a list of nested blocks.
#[derive(Clone, Copy, Debug)]
pub struct BlockExpressions<'a> {
    /// The whole object as written.
    pub raw: Json<'a>,
}

/// One argument of a [`BlockExpressions`].
#[derive(Clone, Copy, Debug)]
pub enum ExpressionItem<'a> {
    /// An attribute argument.
    Expression(Expression<'a>),
    /// A single nested block.
    Block(BlockExpressions<'a>),
    /// A list or set of nested blocks.
    Blocks(crate::json::Array<'a>),
}

impl<'a> BlockExpressions<'a> {
    fn of(v: Option<Json<'a>>) -> Option<BlockExpressions<'a>> {
        v.filter(|v| v.as_object().is_some())
            .map(|raw| BlockExpressions { raw })
    }

    /// The arguments, in document order.
    pub fn items(&self) -> impl Iterator<Item = (&'a str, ExpressionItem<'a>)> + use<'a> {
        members(Some(self.raw)).map(|(k, v)| (k, ExpressionItem::classify(v)))
    }

    /// The argument `name`.
    pub fn get(&self, name: &str) -> Option<ExpressionItem<'a>> {
        self.raw.get(name).map(ExpressionItem::classify)
    }

    /// Every reference in the block and its nested blocks, in document order (with
    /// repeats).
    pub fn references(&self) -> Vec<&'a str> {
        let mut out = Vec::new();
        collect_references(self.raw, &mut out);
        out
    }
}

fn collect_references<'a>(v: Json<'a>, out: &mut Vec<&'a str>) {
    for (_, item) in members(Some(v)) {
        match ExpressionItem::classify(item) {
            ExpressionItem::Expression(e) => out.extend(e.references()),
            ExpressionItem::Block(b) => collect_references(b.raw, out),
            ExpressionItem::Blocks(arr) => {
                for b in arr {
                    collect_references(b, out);
                }
            }
        }
    }
}

impl<'a> ExpressionItem<'a> {
    fn classify(v: Json<'a>) -> ExpressionItem<'a> {
        if let Some(arr) = v.as_array() {
            return ExpressionItem::Blocks(arr);
        }
        let is_expr = v.as_object().is_some_and(|o| {
            o.is_empty()
                || o.iter()
                    .all(|(k, _)| matches!(k, "constant_value" | "references"))
        });
        if is_expr {
            ExpressionItem::Expression(Expression { raw: v })
        } else {
            ExpressionItem::Block(BlockExpressions { raw: v })
        }
    }
}

/// An expression representation: a constant value or the references it makes.
#[derive(Clone, Copy, Debug)]
pub struct Expression<'a> {
    /// The whole object as written.
    pub raw: Json<'a>,
}

impl<'a> Expression<'a> {
    fn of(v: Option<Json<'a>>) -> Option<Expression<'a>> {
        v.filter(|v| v.as_object().is_some())
            .map(|raw| Expression { raw })
    }

    /// `constant_value`: set when the expression references nothing.
    pub fn constant_value(&self) -> Option<Json<'a>> {
        self.raw.get("constant_value")
    }

    /// `references`, e.g. `var.region`, `aws_vpc.main.id`, `aws_vpc.main`.
    pub fn references(&self) -> impl Iterator<Item = &'a str> + use<'a> {
        elements(self.raw.get("references")).filter_map(|s| s.as_str())
    }
}
