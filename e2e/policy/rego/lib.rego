# Helpers shared by the policies below: the resources of a module tree (root_module and every child_modules level)
# of `planned_values` or `prior_state.values`.
package tfwire.lib

# resources(module) is the set of resource objects anywhere in a module tree of the show -json document.
resources(module) := {r |
	walk(module, [path, r])
	count(path) >= 2
	path[count(path) - 2] == "resources"
}
