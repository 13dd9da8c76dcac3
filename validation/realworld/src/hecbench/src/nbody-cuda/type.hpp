using RealType = float;
