# No object is deleted (plain delete or replace). The message names the object's id from prior_state, so a
# document whose prior_state is missing or different gives a different message.
package tfwire.no_delete

import data.tfwire.lib

deny contains msg if {
	some rc in input.resource_changes
	"delete" in rc.change.actions
	msg := sprintf("%s: actions %v delete the object %s", [rc.address, rc.change.actions, prior_id(rc.address)])
}

prior_id(address) := sprintf("with id %v of prior_state", [r.values.id]) if {
	some r in lib.resources(input.prior_state.values.root_module)
	r.address == address
} else := "absent from prior_state"
