// Intentionally empty: a producer library is made of the rblnsim_producer archive alone.
