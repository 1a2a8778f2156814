# Objects changed outside the client are reported (resource_drift), with what the plan then does to them
# (resource_changes).
package tfwire.drift

deny contains msg if {
	some d in input.resource_drift
	msg := sprintf("%s changed outside the client (%v); the plan then does %v", [d.address, d.change.actions, planned(d.address)])
}

planned(address) := rc.change.actions if {
	some rc in input.resource_changes
	rc.address == address
} else := "nothing"
