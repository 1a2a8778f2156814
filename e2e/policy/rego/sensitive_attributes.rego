# A tfwire_shapes string_value must not carry a sensitive value (after_sensitive of resource_changes); its name
# comes from planned_values.
package tfwire.sensitive_attributes

deny contains msg if {
	some rc in input.resource_changes
	rc.type == "tfwire_shapes"
	rc.change.after_sensitive.string_value == true
	msg := sprintf("%s (name %q): string_value is sensitive", [rc.address, planned_name(rc.address)])
}

planned_name(address) := r.values.name if {
	walk(input.planned_values.root_module, [_, r])
	is_object(r)
	r.address == address
} else := "not in planned_values"
