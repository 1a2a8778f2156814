# A tfwire_record keeps every tag key it has in prior_state (planned_values against prior_state).
package tfwire.record_tags

import data.tfwire.lib

deny contains msg if {
	some before in lib.resources(input.prior_state.values.root_module)
	before.type == "tfwire_record"
	some after in lib.resources(input.planned_values.root_module)
	after.address == before.address
	some key, _ in before.values.tags
	not has_tag(after, key)
	msg := sprintf("%s loses tag %q (prior_state %v, planned_values %v)", [after.address, key, before.values.tags, after.values.tags])
}

has_tag(r, key) if r.values.tags[key]
