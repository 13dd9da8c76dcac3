/*
GPU Implementation of Keccak by Guillaume Sevestre, 2010

This code is hereby put in the public domain.
It is given as is, without any guarantee.
*/
#ifndef KECCAKTYPES_H_INCLUDED
#define KECCAKTYPES_H_INCLUDED

typedef unsigned int  UINT32 ;

typedef unsigned int tKeccakLane ;


#endif // KECCAKTYPES_H_INCLUDED
