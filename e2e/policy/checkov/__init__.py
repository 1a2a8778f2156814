# checkov imports every .py file of an external checks directory that has an __init__.py.
