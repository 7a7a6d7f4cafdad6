
#include <torch/csrc/inductor/cpp_prefix.h>
extern "C"  void  kernel(const float* in_ptr0,
                       const float* in_ptr1,
                       const at::BFloat16* in_ptr2,
                       at::BFloat16* out_ptr0,
                       float* out_ptr1)
{
    {
        #pragma GCC ivdep
        for(int64_t x0=static_cast<int64_t>(0L); x0<static_cast<int64_t>(40L); x0+=static_cast<int64_t>(1L))
        {
            for(int64_t x1=static_cast<int64_t>(0L); x1<static_cast<int64_t>(16L); x1+=static_cast<int64_t>(16L))
            {
                {
                    if(C10_LIKELY(x1 >= static_cast<int64_t>(0) && x1 < static_cast<int64_t>(16L)))
                    {
                        auto tmp0 = x1;
                        auto tmp1 = c10::convert<int64_t>(tmp0);
                        auto tmp2 = at::vec::VectorizedN<int64_t,2>::arange(tmp1, 1);
                        auto tmp3 = static_cast<int64_t>(1);
                        auto tmp4 = at::vec::VectorizedN<int64_t,2>(tmp3);
                        auto tmp5 = at::vec::VecMask<int64_t,2>(tmp2 >= tmp4);
                        auto tmp6 = [&]
                        {
                            auto tmp7 =
                            [&]
                            {
                                __at_align__ std::array<float, 16> tmpbuf;
                                #pragma GCC unroll 16
                                for (long x1_inner = 0; x1_inner < static_cast<int64_t>(16); x1_inner++)
                                {
                                    if (tmp5.is_masked(x1_inner))
                                    {
                                        tmpbuf[x1_inner] = in_ptr0[static_cast<int64_t>(15L + ((-1L)*x1) + ((-1L)*x1_inner) + 15L*x0)];
                                    }
                                }
                                return at::vec::Vectorized<float>::loadu(tmpbuf.data(), static_cast<int64_t>(16));
                            }
                            ()
                            ;
                            auto tmp8 = tmp5.template cast<float,1>().template loadu<float,1>(in_ptr1 + static_cast<int64_t>(x1));
                            auto tmp9 = tmp5.template cast<float,1>().template loadu<float,1>(in_ptr1 + static_cast<int64_t>((-1L) + x1));
                            auto tmp10 = tmp8 - tmp9;
                            auto tmp11 = tmp7 * tmp10;
                            auto tmp12 = (tmp11);
                            return tmp12;
                        }
                        ;
                        auto tmp15 =
                        [&]
                        {
                            if (tmp5.all_zero())
                            {
                                return at::vec::Vectorized<float>(static_cast<float>(0.0));
                            }
                            else
                            {
                                auto tmp13 = tmp6();
                                auto tmp14 = at::vec::Vectorized<float>(static_cast<float>(0.0));
                                return decltype(tmp13)::blendv(tmp14, tmp13, tmp5.template cast<float,1>());
                            }
                        }
                        ()
                        ;
                        auto tmp16 = static_cast<float>(0.0);
                        auto tmp17 = at::vec::Vectorized<float>(tmp16);
                        auto tmp18 = decltype(tmp15)::blendv(tmp17, tmp15, tmp5.template cast<float,1>());
                        auto tmp19 = static_cast<int64_t>(15);
                        auto tmp20 = at::vec::VectorizedN<int64_t,2>(tmp19);
                        auto tmp21 = at::vec::VecMask<int64_t,2>(tmp2 < tmp20);
                        auto tmp22 = [&]
                        {
                            auto tmp23 =
                            [&]
                            {
                                __at_align__ std::array<float, 08> tmpbuf;
                                #pragma GCC unroll 16
                                for (long x1_inner = 0; x1_inner < static_cast<int64_t>(16); x1_inner++)
                                {
                                    if (tmp21.is_masked(x1_inner))
                                    {
                                        tmpbuf[x1_inner] = in_ptr0[static_cast<int64_t>(14L + ((-1L)*x1) + ((-1L)*x1_inner) + 15L*x0)];
                                    }
                                }
                                return at::vec::Vectorized<float>::loadu(tmpbuf.data(), static_cast<int64_t>(16));
                            }
                            ()
                            ;
                            auto tmp24 = tmp21.template cast<float,1>().template loadu<float,1>(in_ptr1 + static_cast<int64_t>(1L + x1));
                            auto tmp25 = tmp21.template cast<float,1>().template loadu<float,1>(in_ptr1 + static_cast<int64_t>(x1));
                            auto tmp26 = tmp24 - tmp25;
                            auto tmp27 = tmp23 * tmp26;
                            auto tmp28 = (tmp27);
                            return tmp28;
                        }
                        ;
                        auto tmp31 =
                        [&]
                        {
                            if (tmp21.all_zero())
                            {
                                return at::vec::Vectorized<float>(static_cast<float>(0.0));
                            }
                            else
                            {
                                auto tmp29 = tmp22();
                                auto tmp30 = at::vec::Vectorized<float>(static_cast<float>(0.0));
                                return decltype(tmp29)::blendv(tmp30, tmp29, tmp21.template cast<float,1>());
                            }
                        }
                        ()
                        ;
                        auto tmp32 = decltype(tmp31)::blendv(tmp17, tmp31, tmp21.template cast<float,1>());
                        auto tmp33 = tmp18 + tmp32;
                        auto tmp34 = at::vec::convert<at::BFloat16>(tmp33);
                        tmp34.store(out_ptr0 + static_cast<int64_t>(x1 + 16L*x0), static_cast<int64_t>(16));
                    }
                }
            }
        }
    }
                                    }
               