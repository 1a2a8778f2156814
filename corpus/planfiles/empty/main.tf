# No resources, no outputs: the smallest plan.
