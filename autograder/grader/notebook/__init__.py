"""One notebook: read it (submissions), plan what runs where (plan, attacks), run and watch its
checker (grade), decide its points and status (verdict). It imports the layers below, never the
classroom."""
